package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"lineage/internal/config"
	"lineage/internal/content"
)

const contentUsage = `usage: lineage content COMMAND [flags]

commands:
  import DIR [--draft]   publish every *.json document under DIR (one master-ref move), or with --draft save them as drafts;
                         media come from DIR/media, or DIR/../media
  export DIR             write the published documents to DIR/<id>.json and media to DIR/media
  preview [--ttl 30m]    print a preview token (a ref that sees drafts) for the site's /preview

flags (every command):
  --data DIR             data directory (env LINEAGE_DATA, default ./data);
                         env LINEAGE_DATABASE_URL selects PostgreSQL, LINEAGE_PUBLIC_URL the public origin`

// runContent is `lineage content import|export|preview`: the editors' and operators'
// tools for the content room. It works on the same store as a running server.
func runContent(ctx context.Context, args []string) error {
	if err := noSubcommand(args, func() { fmt.Fprintln(os.Stderr, contentUsage) }); err != nil {
		return err
	}
	sub, args := args[0], args[1:]
	fs := newFlags("content "+sub, map[string]string{"import": "DIR [--draft] [--data DIR]", "export": "DIR [--data DIR]", "preview": "[--ttl 30m] [--data DIR]"}[sub])
	cfgFn := config.DataFlags(fs)
	var ttl time.Duration
	var draft bool
	if sub == "import" {
		fs.BoolVar(&draft, "draft", false, "save the documents as drafts (seen only through preview tokens) instead of publishing them")
	}
	if sub == "preview" {
		fs.DurationVar(&ttl, "ttl", content.DefaultPreviewTTL, "how long the preview token is valid")
	}
	positional, err := parseInterleaved(fs, args) // video.go
	if err != nil {
		return err
	}
	want := map[string]int{"import": 1, "export": 1, "preview": 0}
	n, known := want[sub]
	if !known {
		fmt.Fprintln(os.Stderr, contentUsage)
		return fmt.Errorf("unknown command %q", sub)
	}
	if len(positional) != n {
		fs.Usage()
		return fmt.Errorf("%s takes %d argument%s, got %d", sub, n, map[bool]string{true: "", false: "s"}[n == 1], len(positional))
	}
	cfg, db, blobs, err := openStoreAndBlobs(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := content.New(db, content.Options{PublicURL: cfg.PublicURL, DataDir: cfg.DataDir, Blobs: blobs, RefCheckInterval: -1})

	switch sub {
	case "import":
		if draft {
			n, err := svc.ImportDraftsDir(ctx, positional[0])
			if err != nil {
				return err
			}
			fmt.Printf("saved %d drafts into %s; preview them with `lineage content preview`\n", n, db.Where)
			return nil
		}
		n, err := svc.ImportDir(ctx, positional[0])
		if err != nil {
			return err
		}
		info, err := svc.Repository(ctx)
		if err != nil {
			return err
		}
		fmt.Printf("imported %d documents into %s; master ref is now %s\n", n, db.Where, info.MasterRef)
	case "export":
		n, err := svc.ExportDir(ctx, positional[0])
		if err != nil {
			return err
		}
		fmt.Printf("exported %d documents to %s\n", n, positional[0])
	case "preview":
		token, err := svc.CreatePreview(ctx, ttl)
		if err != nil {
			return err
		}
		fmt.Println(token)
		fmt.Fprintf(os.Stderr, "valid for %s; open %s/preview?token=%s&documentId=<document id>\n",
			ttl, strings.TrimRight(cfg.PublicURL, "/"), token)
	}
	return nil
}
