package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"lineage/internal/config"
	"lineage/internal/video"
)

// runVideo is `lineage video`: API tokens, uploads and replacements on the video host.
func runVideo(ctx context.Context, args []string) error {
	return videoCmd{
		stdout:   os.Stdout,
		stderr:   os.Stderr,
		getenv:   os.Getenv,
		terminal: term.IsTerminal(int(os.Stderr.Fd())),
	}.run(ctx, args)
}

// videoCmd holds what the command touches of the outside world, so tests can run it
// in-process against a fake video host with a fake clock.
type videoCmd struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	terminal       bool                  // stderr is a terminal: draw a progress bar
	setup          func(*video.Uploader) // tests: clock, sleep, network
}

const videoUsage = `usage:
  lineage video token --code CODE --redirect-uri URI
  lineage video token --client-credentials [--scope public]
  lineage video upload FILE [--name N] [--description D] [--data DIR]
  lineage video replace VIDEO_URI FILE [--data DIR]

An upload that stops (lost connection, Ctrl-C, crash) resumes when the same command runs
again. Environment: LINEAGE_VIDEO_ACCESS_TOKEN (upload, replace), LINEAGE_VIDEO_CLIENT_ID
and LINEAGE_VIDEO_CLIENT_SECRET (token), LINEAGE_VIDEO_API_URL (default
https://api.vimeo.com). See docs/video.md.
`

func (c videoCmd) run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, videoUsage)
		return errors.New("a subcommand is needed: token, upload or replace")
	}
	switch args[0] {
	case "token":
		return c.token(ctx, args[1:])
	case "upload":
		return c.upload(ctx, args[1:])
	case "replace":
		return c.replace(ctx, args[1:])
	case "-h", "--help", "help":
		fmt.Fprint(c.stderr, videoUsage)
		return flag.ErrHelp
	}
	fmt.Fprint(c.stderr, videoUsage)
	return fmt.Errorf("unknown subcommand %q", args[0])
}

func (c videoCmd) token(ctx context.Context, args []string) error {
	fs := newFlags("video token", "--code CODE --redirect-uri URI | --client-credentials [--scope public]")
	fs.SetOutput(c.stderr)
	code := fs.String("code", "", "authorisation code from the browser redirect")
	redirect := fs.String("redirect-uri", "", "the redirect URI the code was issued for")
	clientCreds := fs.Bool("client-credentials", false, "ask for an app token instead of a user's")
	scope := fs.String("scope", video.DefaultScope, "scopes of an app token, space-separated")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("unexpected argument %q", rest[0])
	}
	scopeSet := false
	fs.Visit(func(f *flag.Flag) { scopeSet = scopeSet || f.Name == "scope" })
	switch {
	case *clientCreds && (*code != "" || *redirect != ""):
		return errors.New("give either --code with --redirect-uri, or --client-credentials")
	case !*clientCreds && scopeSet:
		return errors.New("--scope goes with --client-credentials (a code carries the scopes it was granted)")
	case !*clientCreds && (*code == "" || *redirect == ""):
		fs.Usage()
		return errors.New("give --code and --redirect-uri, or --client-credentials")
	}
	client, err := video.NewClient(video.SettingsFromEnv(c.getenv), nil)
	if err != nil {
		return err
	}
	var t video.Token
	if *clientCreds {
		t, err = client.ClientCredentials(ctx, *scope)
	} else {
		t, err = client.ExchangeCode(ctx, *code, *redirect)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "LINEAGE_VIDEO_ACCESS_TOKEN=%s\n", t.AccessToken)
	about := []string{fmt.Sprintf("%s token", t.TokenType), fmt.Sprintf("scope: %s", t.Scope)}
	if t.User != nil {
		about = append(about, fmt.Sprintf("user: %s (%s)", t.User.Name, t.User.URI))
	}
	if t.App != nil {
		about = append(about, fmt.Sprintf("app: %s (%s)", t.App.Name, t.App.URI))
	}
	fmt.Fprintf(c.stdout, "# %s\n", strings.Join(about, "; "))
	return nil
}

func (c videoCmd) upload(ctx context.Context, args []string) error {
	fs := newFlags("video upload", "FILE [--name N] [--description D] [--data DIR]")
	fs.SetOutput(c.stderr)
	name := fs.String("name", "", "the video's title (default: the file's name)")
	description := fs.String("description", "", "the video's description")
	cfgFn := config.DataFlags(fs)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return fmt.Errorf("one FILE at a time; unexpected %q", rest[1])
	}
	file := ""
	if len(rest) == 1 {
		file = rest[0]
	}
	up, err := c.uploader(cfgFn)
	if err != nil {
		return err
	}
	res, err := up.Upload(ctx, file, *name, *description)
	if err != nil {
		return err
	}
	return c.printResult(res)
}

func (c videoCmd) replace(ctx context.Context, args []string) error {
	fs := newFlags("video replace", "VIDEO_URI FILE [--data DIR]")
	fs.SetOutput(c.stderr)
	cfgFn := config.DataFlags(fs)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 2 {
		return fmt.Errorf("VIDEO_URI and one FILE; unexpected %q", rest[2])
	}
	rest = append(rest, "", "")
	uri, file := rest[0], rest[1]
	if _, err := video.NormalizeVideoURI(uri); err != nil {
		return err
	}
	up, err := c.uploader(cfgFn)
	if err != nil {
		return err
	}
	res, err := up.Replace(ctx, uri, file)
	if err != nil {
		return err
	}
	return c.printResult(res)
}

func (c videoCmd) uploader(cfgFn func() (config.Config, error)) (*video.Uploader, error) {
	cfg, err := cfgFn()
	if err != nil {
		return nil, err
	}
	settings := video.SettingsFromEnv(c.getenv)
	if settings.AccessToken == "" {
		return nil, errors.New("LINEAGE_VIDEO_ACCESS_TOKEN is not set: get a token with the upload scope from `lineage video token --code CODE --redirect-uri URI`")
	}
	client, err := video.NewClient(settings, nil)
	if err != nil {
		return nil, err
	}
	up := &video.Uploader{
		Client:   client,
		StateDir: filepath.Join(cfg.DataDir, video.StateDirName),
		Progress: video.NewProgress(c.stderr, c.terminal, nil),
	}
	if c.setup != nil {
		c.setup(up)
	}
	return up, nil
}

// printResult writes what an editor pastes into a content document: the video's URI,
// its page, and the embed value of a video slice's primary.video field.
func (c videoCmd) printResult(res video.Result) error {
	embed, err := json.Marshal(struct {
		Type         string `json:"type"`
		ProviderName string `json:"provider_name"`
		EmbedURL     string `json:"embed_url"`
		Title        string `json:"title,omitempty"`
	}{"video", "Vimeo", res.Link, res.Name})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "video: %s\nlink:  %s\nvideo block (primary.video): %s\n", res.URI, res.Link, embed)
	fmt.Fprintln(c.stderr, "The video host transcodes the file now; the player shows the new file once that is done.")
	return nil
}

// parseInterleaved parses flags that may come before, between or after the positional
// arguments (`upload FILE --name N`), which flag.Parse alone stops at.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}
