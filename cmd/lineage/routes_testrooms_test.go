package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lineage/internal/content"
	"lineage/internal/iiif"
)

// TestDomainTestRoomsAreTheTable: the rooms that the domain packages' own tests serve
// (trees, membership, content, iiif, payments …: an httpx.Room written out in a
// _test.go file) are the table's, route for route. They cannot be built from here
// (some are in the packages' internal tests), so their source is read: a named room
// lists exactly the patterns and fallbacks of the table's rooms of that name; a room
// without a name (a test of one route) lists only routes the table has. The
// middleware is the tests' own choice (they often name the caller themselves) and is
// not compared. TestTestRoomsAreTheTable does the same for authtest's and
// researchtest's rooms, which it builds.
func TestDomainTestRoomsAreTheTable(t *testing.T) {
	_, _, _, a, _ := startSite(t, t.TempDir())
	type shape struct{ routes, fallback []string }
	table := map[string]*shape{}
	var all []string
	for _, rm := range a.routes() {
		s := table[rm.Name]
		if s == nil {
			s = &shape{}
			table[rm.Name] = s
		}
		for _, rt := range rm.Routes {
			s.routes = append(s.routes, rt.Pattern)
			all = append(all, rt.Pattern)
		}
		s.fallback = append(s.fallback, rm.Fallback...)
	}
	// The string constants the test rooms' patterns are written with, by the name a
	// test file uses (its package's, or the import's).
	consts := map[string]string{"content.APIPath": content.APIPath, "content.StudioPrefix": content.StudioPrefix, "iiif.Prefix": iiif.Prefix}

	rooms, err := testRooms("../../internal", consts)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, rm := range rooms {
		if rm.name == "" {
			for _, p := range rm.routes {
				if !slices.Contains(all, p) {
					t.Errorf("%s: a test room serves %q, which the table does not have", rm.at, p)
				}
			}
			continue
		}
		seen[rm.name] = true
		want := table[rm.name]
		if want == nil {
			t.Errorf("%s: a test room %q, which the table does not have", rm.at, rm.name)
			continue
		}
		if extra, missing := differ(rm.routes, want.routes); extra != nil || missing != nil {
			t.Errorf("%s: the test's %s room serves %q that the table's does not, and not %q that it does", rm.at, rm.name, extra, missing)
		}
		if extra, missing := differ(rm.fallback, want.fallback); extra != nil || missing != nil {
			t.Errorf("%s: the test's %s room falls back for %q that the table's does not, and not for %q", rm.at, rm.name, extra, missing)
		}
	}
	// So that the test fails, rather than passing on nothing, when the rooms are no
	// longer found where it looks.
	for _, name := range []string{"trees", "membership", "content", "studio", "iiif", "images", "payments"} {
		if !seen[name] {
			t.Errorf("no test room named %q found under internal/", name)
		}
	}
}

// testRoom is an httpx.Room as a test file writes it.
type testRoom struct {
	at               string // file:line
	name             string
	routes, fallback []string
}

// testRooms reads every httpx.Room literal in the _test.go files under dir, except
// in internal/httpx, whose tests exercise rooms of their own making. A room's
// Routes and Fallback must be literals whose strings are literals, concatenations
// or constants named in consts; a room written otherwise is an error, so that it is
// never skipped unseen. Rooms a test gets from a function (authtest.AuthRoom) are
// held to the table where that function is (TestTestRoomsAreTheTable).
func testRooms(dir string, consts map[string]string) ([]testRoom, error) {
	var rooms []testRoom
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if filepath.Base(path) == "httpx" || filepath.Base(path) == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := strings.TrimSuffix(f.Name.Name, "_test")
		var bad error
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || bad != nil {
				return bad == nil
			}
			var lits []*ast.CompositeLit
			switch {
			case isHTTPX(lit.Type, "Room"):
				lits = []*ast.CompositeLit{lit}
			case isSliceOf(lit.Type, "Room"):
				for _, e := range lit.Elts {
					if el, ok := e.(*ast.CompositeLit); ok { // calls: see above
						lits = append(lits, el)
					}
				}
			default:
				return true
			}
			for _, el := range lits {
				rm, err := readRoom(fset, pkg, el, consts)
				if err != nil {
					bad = err
					return false
				}
				rooms = append(rooms, rm)
			}
			return false
		})
		return bad
	})
	return rooms, err
}

func readRoom(fset *token.FileSet, pkg string, lit *ast.CompositeLit, consts map[string]string) (testRoom, error) {
	pos := fset.Position(lit.Pos())
	rm := testRoom{at: fmt.Sprintf("%s:%d", filepath.ToSlash(pos.Filename), pos.Line)}
	fail := func(e ast.Node, what string) error {
		return fmt.Errorf("%s: %s of a test room is not written so that this test can read it", fset.Position(e.Pos()), what)
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return rm, fail(e, "a field")
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			return rm, fail(e, "a field")
		}
		switch key.Name {
		case "Name":
			s, ok := stringValue(pkg, kv.Value, consts)
			if !ok {
				return rm, fail(kv.Value, "the name")
			}
			rm.name = s
		case "Fallback":
			l, ok := kv.Value.(*ast.CompositeLit)
			if !ok {
				return rm, fail(kv.Value, "the fallback")
			}
			for _, v := range l.Elts {
				s, ok := stringValue(pkg, v, consts)
				if !ok {
					return rm, fail(v, "a fallback")
				}
				rm.fallback = append(rm.fallback, s)
			}
		case "Routes":
			l, ok := kv.Value.(*ast.CompositeLit)
			if !ok || !isSliceOf(l.Type, "Route") {
				return rm, fail(kv.Value, "the routes")
			}
			for _, r := range l.Elts {
				route, ok := r.(*ast.CompositeLit)
				if !ok {
					return rm, fail(r, "a route")
				}
				found := false
				for _, f := range route.Elts {
					if kv, ok := f.(*ast.KeyValueExpr); ok {
						if k, _ := kv.Key.(*ast.Ident); k != nil && k.Name == "Pattern" {
							s, ok := stringValue(pkg, kv.Value, consts)
							if !ok {
								return rm, fail(kv.Value, "a pattern")
							}
							rm.routes = append(rm.routes, s)
							found = true
						}
					}
				}
				if !found {
					return rm, fail(r, "a route's pattern")
				}
			}
		}
	}
	return rm, nil
}

// stringValue is the value of a string expression made of literals, + and the
// constants in consts (named pkg.Name, or Name inside package pkg).
func stringValue(pkg string, e ast.Expr, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		x, ok1 := stringValue(pkg, e.X, consts)
		y, ok2 := stringValue(pkg, e.Y, consts)
		return x + y, ok1 && ok2
	case *ast.Ident:
		s, ok := consts[pkg+"."+e.Name]
		return s, ok
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			s, ok := consts[x.Name+"."+e.Sel.Name]
			return s, ok
		}
	}
	return "", false
}

// isHTTPX says whether t is httpx.<name>.
func isHTTPX(t ast.Expr, name string) bool {
	sel, ok := t.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "httpx" && sel.Sel.Name == name
}

// isSliceOf says whether t is []httpx.<name>.
func isSliceOf(t ast.Expr, name string) bool {
	arr, ok := t.(*ast.ArrayType)
	return ok && arr.Len == nil && isHTTPX(arr.Elt, name)
}

// differ is what got has that want has not, and the reverse.
func differ(got, want []string) (extra, missing []string) {
	for _, g := range got {
		if !slices.Contains(want, g) {
			extra = append(extra, g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			missing = append(missing, w)
		}
	}
	return extra, missing
}
