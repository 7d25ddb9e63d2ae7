package iiiftiles

import (
	"encoding/json"
	"slices"
	"testing"
)

// A 1000 × 600 image in 512-pixel tiles: four tiles at full size (the right and
// bottom ones cut short), one at half size covering the whole image.
func TestPathsCoversEveryLevel(t *testing.T) {
	var in Info
	if err := json.Unmarshal([]byte(`{"width":1000,"height":600,"tiles":[{"width":512,"height":512,"scaleFactors":[1,2]}]}`), &in); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/iiif/3/scan/0,0,512,512/512,512/0/default.jpg",
		"/iiif/3/scan/512,0,488,512/488,512/0/default.jpg",
		"/iiif/3/scan/0,512,512,88/512,88/0/default.jpg",
		"/iiif/3/scan/512,512,488,88/488,88/0/default.jpg",
		"/iiif/3/scan/0,0,1000,600/500,300/0/default.jpg",
	}
	if got := Paths("scan", &in); !slices.Equal(got, want) {
		t.Errorf("Paths =\n%q\nwant\n%q", got, want)
	}
}
