package content

import (
	"net/http"

	"lineage/internal/httpx"
)

// room is the content room as cmd/lineage's route table serves it.
func room(s *Service) httpx.Room {
	return httpx.Room{
		Name: "content",
		Routes: []httpx.Route{
			{Pattern: "GET " + APIPath, Handler: httpx.Plain(s.ServeAPI)},
			{Pattern: "GET " + APIPath + "/{$}", Handler: httpx.Plain(s.ServeAPI)},
			{Pattern: "GET " + APIPath + "/documents/search", Handler: httpx.Plain(s.ServeSearch)},
			{Pattern: "GET " + APIPath + "/tags", Handler: httpx.Plain(s.ServeTags)},
			{Pattern: APIPath + "/", Handler: httpx.Plain(s.ServeNoEndpoint)},
			{Pattern: "/media/", Handler: httpx.Plain(s.ServeMedia)},
		},
	}
}

// handler serves the content room alone.
func handler(s *Service) http.Handler { return httpx.Serve(room(s)) }
