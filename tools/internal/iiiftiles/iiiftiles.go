// Package iiiftiles lists the tile requests an image viewer (OpenSeadragon) makes for
// a whole image, for the tools that load the IIIF server the way visitors do.
package iiiftiles

import "fmt"

// Info is the part of a IIIF Image API 3 info.json that the tile requests follow from.
type Info struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	Tiles  []struct {
		Width        int   `json:"width"`
		ScaleFactors []int `json:"scaleFactors"`
	} `json:"tiles"`
}

// Paths lists every tile of every level of image id, as paths from the server's root.
func Paths(id string, in *Info) []string {
	var out []string
	for _, t := range in.Tiles {
		for _, sf := range t.ScaleFactors {
			step := t.Width * sf
			for y := 0; y < in.Height; y += step {
				for x := 0; x < in.Width; x += step {
					w, h := min(step, in.Width-x), min(step, in.Height-y)
					out = append(out, fmt.Sprintf("/iiif/3/%s/%d,%d,%d,%d/%d,%d/0/default.jpg", id, x, y, w, h, (w+sf-1)/sf, (h+sf-1)/sf))
				}
			}
		}
	}
	return out
}
