package research

// LibraryItem is an entry of the library catalogue.
type LibraryItem struct {
	ID         int64  `json:"id"`
	Collection string `json:"collection"`
	Key        string `json:"key"`
	Title      string `json:"title"`
	Authors    string `json:"authors"`
	Year       int    `json:"year,omitempty"`
	Publisher  string `json:"publisher"`
	Subjects   string `json:"subjects"`
	Shelfmark  string `json:"shelfmark"`
}

// ArchiveItem is an entry of the archive catalogue, at any level of its hierarchy.
type ArchiveItem struct {
	ID          int64  `json:"id"`
	Collection  string `json:"collection"`
	Reference   string `json:"reference"`
	Title       string `json:"title"`
	Date        string `json:"date"`
	Level       string `json:"level"`
	Description string `json:"description"`
	Parent      string `json:"parent,omitempty"` // the parent's reference
}
