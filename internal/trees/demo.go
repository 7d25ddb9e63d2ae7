package trees

import (
	"context"
	"errors"
	"os"

	"lineage/internal/gedcom"
)

// The demo tree that serve --demo loads (docs/trees.md "Demo tree").
const (
	DemoSlug        = "ashworth-family"
	DemoTitle       = "The Ashworth family of Lancashire"
	DemoDescription = "Weavers, spinners and their descendants from the Roch valley, 1760s to today. A generated demonstration tree: the people are invented."
	DemoFile        = "ashworth.ged"
)

// Exists reports whether a tree of that slug exists, whatever its visibility.
func (s *Service) Exists(ctx context.Context, slug string) (bool, error) {
	_, err := s.treeBySlug(ctx, s.db, slug)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// LoadDemo imports the demo tree from path (demo/trees/ashworth.ged) as a published
// tree, unless a tree of its slug exists. It reports whether it loaded.
func (s *Service) LoadDemo(ctx context.Context, path string) (bool, error) {
	if ok, err := s.Exists(ctx, DemoSlug); err != nil || ok {
		return false, err
	}
	if _, err := os.Stat(path); err != nil {
		return false, err
	}
	r, err := gedcom.Open(path, nil)
	if err != nil {
		return false, err
	}
	defer r.Close()
	pub := true
	_, err = s.Import(ctx, r, ImportOptions{Slug: DemoSlug, Title: DemoTitle, Description: DemoDescription, Published: &pub, SourceFile: DemoFile})
	return err == nil, err
}
