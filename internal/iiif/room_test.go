package iiif

import (
	"net/http"

	"lineage/internal/httpx"
)

// rooms are the image server and the images API as cmd/lineage's route table serves
// them, the API behind the service's Authenticate.
func rooms(s *Service) []httpx.Room {
	return []httpx.Room{
		{Name: "iiif", Routes: []httpx.Route{{Pattern: Prefix, Handler: httpx.Plain(s.ServeIIIF)}}},
		{
			Name:     "images",
			Log:      s.opts.Log,
			Session:  s.opts.Authenticate,
			Fallback: []string{"/api/images", "/api/images/"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/images", Handler: s.ListImages},
				{Pattern: "GET /api/images/{slug...}", Handler: s.GetImageItem},
			},
		},
	}
}

// handler serves both rooms alone.
func handler(s *Service) http.Handler { return httpx.Serve(rooms(s)...) }
