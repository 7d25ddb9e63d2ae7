package main

import (
	"context"

	"lineage/internal/config"
	"lineage/internal/server"
	"lineage/internal/store"
)

// app holds the domain services of a running server and the routes they mount.
type app struct {
	mounts []server.Mount
}

// assemble builds every domain service on the open store. It is the one place that
// knows all the rooms; each room knows only its own.
func assemble(ctx context.Context, cfg config.Config, db *store.DB) (*app, error) {
	a := &app{}
	return a, nil
}
