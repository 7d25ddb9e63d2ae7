// Package server is Lineage's front door: the route table of the one Go binary, the
// middleware every response passes through (security headers, compression, request
// logs, limits), static files, and the supervisor and reverse proxy of the React Router
// server-rendering child process.
package server
