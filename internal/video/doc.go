// Package video is the operators' tool for the learning hub's lecture recordings: it
// obtains API tokens from the video host (Vimeo API 3.4), creates videos and new versions
// of existing ones, and pushes the file with the tus 1.0 resumable-upload protocol.
//
// Recordings are large and the society's connections are ordinary, so an upload is built
// to survive faults: every offset the server returns is checked, failed requests are
// retried on the schedule of seed-spec §9 (0, 1, 3 and 5 seconds, only while the network
// is reachable), and the upload link and offset are kept in a small state file under the
// data directory, so that running the same command again after a crash, a lost
// connection or Ctrl-C continues from the server's offset instead of creating a second
// video.
//
// The command `lineage video` (cmd/lineage/video.go) is the only caller; the package
// videotest holds an in-process fake of the video host, with a real tusd behind the
// upload links, for this package's tests and the command's.
package video
