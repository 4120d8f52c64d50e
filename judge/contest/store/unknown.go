package store

import (
	"encoding/json"
	"reflect"
	"strings"
)

// keepUnknown is the record now, as this version writes it in place of was, with what was
// holds that this version does not know put back: the fields a newer portal added, at the top
// and in the records within (a struct field's object), so that a record changed by an older
// portal in a cluster upgraded one machine at a time loses nothing. A field this version
// knows is its own to change or drop. Lists and maps are written as this version has them.
func keepUnknown(t reflect.Type, was, now []byte) []byte {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return now
	}
	var old, cur map[string]json.RawMessage
	if json.Unmarshal(was, &old) != nil || json.Unmarshal(now, &cur) != nil || old == nil || cur == nil {
		return now
	}
	known := jsonFields(t)
	changed := false
	for k, v := range old {
		ft, ok := known[k]
		switch {
		case !ok:
			cur[k], changed = v, true
		case cur[k] != nil:
			if merged := keepUnknown(ft, v, cur[k]); string(merged) != string(cur[k]) {
				cur[k], changed = merged, true
			}
		}
	}
	if !changed {
		return now
	}
	data, err := json.Marshal(cur)
	if err != nil {
		return now
	}
	return data
}

// jsonFields are the JSON names of t's fields (its embedded structs' too), with their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
