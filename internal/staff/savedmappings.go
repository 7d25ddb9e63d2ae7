package staff

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"lineage/internal/auth"
	"lineage/internal/httpx"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// SavedMapping is a mapping kept for the next file of the same layout.
type SavedMapping struct {
	Name      string           `json:"name"`
	Mapping   research.Mapping `json:"mapping"`
	Columns   []string         `json:"columns"`
	UpdatedAt time.Time        `json:"updated_at"`
	UpdatedBy *JobUser         `json:"updated_by"`
}

// mappingName checks a saved mapping's name.
func mappingName(s string) (string, error) {
	n, err := textfield.SingleLine(s, maxMappingName)
	if err != nil || strings.TrimSpace(n) == "" || utf8.RuneCountInString(n) > maxMappingName {
		return "", fmt.Errorf("The name must be one line of 1 to %d characters.", maxMappingName)
	}
	return strings.TrimSpace(n), nil
}

func (s *Service) mappings(ctx context.Context) ([]SavedMapping, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT m.name, m.mapping, m.columns, m.updated_at, m.updated_by, u.name
		FROM staff_mappings m LEFT JOIN users u ON u.id = m.updated_by ORDER BY m.updated_at DESC, m.name`)
	return store.Collect(rows, err, func(row store.Row) (m SavedMapping, err error) {
		var mapping, cols string
		var at int64
		var by sql.NullInt64
		var byName sql.NullString
		if err := row.Scan(&m.Name, &mapping, &cols, &at, &by, &byName); err != nil {
			return m, err
		}
		if err := json.Unmarshal([]byte(mapping), &m.Mapping); err != nil {
			return m, err
		}
		if err := json.Unmarshal([]byte(cols), &m.Columns); err != nil {
			return m, err
		}
		m.UpdatedAt = store.Time(at)
		if by.Valid {
			m.UpdatedBy = &JobUser{ID: by.Int64, Name: byName.String}
		}
		return m, nil
	})
}

// saveMapping stores (or replaces) a named mapping, within MaxMappings, and logs it.
func (s *Service) saveMapping(ctx context.Context, me *auth.User, name string, m *research.Mapping, columns []string) error {
	name, err := mappingName(name)
	if err != nil {
		return errorField("name", err.Error())
	}
	mj, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if columns == nil {
		columns = []string{}
	}
	cj, err := json.Marshal(columns)
	if err != nil {
		return err
	}
	var before *SavedMapping
	all, err := s.mappings(ctx)
	if err != nil {
		return err
	}
	for i := range all {
		if all[i].Name == name {
			before = &all[i]
		}
	}
	if before == nil && len(all) >= MaxMappings {
		return errorField("name", fmt.Sprintf("At most %d mappings may be saved: delete one you no longer use.", MaxMappings))
	}
	now := s.Now().Unix()
	if before == nil {
		_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO staff_mappings (name, mapping, columns, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)`),
			name, string(mj), string(cj), now, me.ID)
	} else {
		_, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE staff_mappings SET mapping = ?, columns = ?, updated_at = ?, updated_by = ? WHERE name = ?`),
			string(mj), string(cj), now, me.ID, name)
	}
	if err != nil {
		return err
	}
	var was any
	if before != nil {
		was = before.Mapping
	}
	return s.record(ctx, me, ActionMappingSave, "mapping:"+name, name, was, m)
}

// ListMappings is GET /api/studio/records/mappings.
func (s *Service) ListMappings(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	all, err := s.mappings(r.Context())
	return httpx.Reply(w, http.StatusOK, map[string]any{"mappings": all}, err)
}

// PutMapping is PUT /api/studio/records/mappings/{name} {"mapping", "columns"}.
func (s *Service) PutMapping(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	var in struct {
		Mapping json.RawMessage `json:"mapping"`
		Columns []string        `json:"columns"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	var fe httpx.FieldErrors
	name, err := mappingName(r.PathValue("name"))
	if err != nil {
		fe.Add("name", "%s", err.Error())
	}
	m, err := parseMapping(in.Mapping, ",")
	if err != nil {
		var he *httpx.Error
		if errors.As(err, &he) {
			for _, msg := range he.Fields["mapping"] {
				fe.Add("mapping", "%s", msg)
			}
		} else {
			return err
		}
	}
	if len(in.Columns) > 1000 {
		fe.Add("columns", "At most 1000 columns.")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	if err := s.saveMapping(r.Context(), me, name, m, in.Columns); err != nil {
		return err
	}
	all, err := s.mappings(r.Context())
	if err != nil {
		return err
	}
	for _, sm := range all {
		if sm.Name == name {
			httpx.JSON(w, http.StatusOK, map[string]any{"mapping": sm})
			return nil
		}
	}
	return errNotFound
}

// DeleteMapping is DELETE /api/studio/records/mappings/{name}.
func (s *Service) DeleteMapping(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	name := r.PathValue("name")
	all, err := s.mappings(r.Context())
	if err != nil {
		return err
	}
	for _, sm := range all {
		if sm.Name != name {
			continue
		}
		if _, err := s.db.ExecContext(r.Context(), s.db.Rebind(`DELETE FROM staff_mappings WHERE name = ?`), name); err != nil {
			return err
		}
		if err := s.record(r.Context(), me, ActionMappingDelete, "mapping:"+name, name, sm.Mapping, nil); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	return errNotFound
}
