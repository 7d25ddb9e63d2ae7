// Package blob is where Lineage keeps files that are not rows: scans and their tile
// pyramids, the derivative cache, content media, mail written to files, staged
// uploads. One Store interface has two backends: Local, a folder (the default,
// <data>/files), and S3, any S3-compatible bucket (LINEAGE_STORAGE_URL=s3://bucket/prefix),
// so that several `lineage serve` processes see the same files.
//
// Keys are slash-separated relative paths (ValidKey). Every Put records the SHA-256 of
// what it stored and can check it against the one the caller expects; Migrate copies
// one store into another, resumably, verifying each object it writes.
//
// Objects are never made publicly readable: S3 objects are written without an ACL
// (private in a bucket without a public policy), and the only way to hand one to a
// browser is SignedURL, which callers use only for what anyone may see.
//
// blobtest holds an in-process S3 server (gofakes3 over HTTP) for tests.
package blob
