package trees_test

import (
	"lineage/internal/httpx"
	"lineage/internal/trees"
)

// treesRoom is the trees room as cmd/lineage's route table serves it, without the
// accounts middleware (the tests name the viewer themselves).
func treesRoom(s *trees.Service) httpx.Room {
	return httpx.Room{
		Name:     "trees",
		Fallback: []string{"/api/trees", "/api/trees/"},
		Routes: []httpx.Route{
			{Pattern: "GET /api/trees", Handler: s.ListTrees},
			{Pattern: "GET /api/trees/search", Handler: s.SearchPeople},
			{Pattern: "GET /api/trees/uploads", Handler: s.ListOwnTrees},
			{Pattern: "POST /api/trees/uploads", Handler: s.Upload},
			{Pattern: "GET /api/trees/{slug}", Handler: s.GetTree},
			{Pattern: "DELETE /api/trees/{slug}", Handler: s.DeleteTree},
			{Pattern: "GET /api/trees/{slug}/surnames", Handler: s.ListSurnames},
			{Pattern: "GET /api/trees/{slug}/people", Handler: s.ListPeople},
			{Pattern: "GET /api/trees/{slug}/people/{id}", Handler: s.GetPerson},
			{Pattern: "GET /api/trees/{slug}/people/{id}/{section}", Handler: s.GetPersonSection},
			{Pattern: "GET /api/trees/{slug}/graph", Handler: s.GetGraph},
			{Pattern: "POST /api/trees/{slug}/publish", Handler: s.Publish},
			{Pattern: "POST /api/trees/{slug}/unpublish", Handler: s.Unpublish},
			{Pattern: "POST /api/trees/{slug}/access", Handler: s.SetTreeAccess},
		},
	}
}
