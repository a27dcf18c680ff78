package rdsservice

// AttrValue is one attribute's value as Terraform sends it (a configuration, a plan or a state),
// with no framework type: null, unknown, or a known string, whole number, bool, list (lists and
// sets) or object (objects and maps). The provider converts a resource's whole object into one
// (one generic conversion), and the requests below the provider read it by attribute name.
type AttrValue struct {
	null, unknown bool
	str           string
	num           int64
	boolean       bool
	elems         []AttrValue
	attrs         map[string]AttrValue
}

// NullAttr, UnknownAttr, StringAttr, IntAttr, BoolAttr, ListAttr and ObjectAttr build values.
func NullAttr() AttrValue                         { return AttrValue{null: true} }
func UnknownAttr() AttrValue                      { return AttrValue{unknown: true} }
func StringAttr(s string) AttrValue               { return AttrValue{str: s} }
func IntAttr(n int64) AttrValue                   { return AttrValue{num: n} }
func BoolAttr(b bool) AttrValue                   { return AttrValue{boolean: b} }
func ListAttr(e ...AttrValue) AttrValue           { return AttrValue{elems: e} }
func ObjectAttr(a map[string]AttrValue) AttrValue { return AttrValue{attrs: a} }

// IsNull, IsUnknown and IsKnown tell the three states apart.
func (v AttrValue) IsNull() bool    { return v.null }
func (v AttrValue) IsUnknown() bool { return v.unknown }
func (v AttrValue) IsKnown() bool   { return !v.null && !v.unknown }

// Get is the attribute name of an object (or the element of a map); null when absent.
func (v AttrValue) Get(name string) AttrValue {
	if a, ok := v.attrs[name]; ok {
		return a
	}
	return NullAttr()
}

// Str, Int and Bool are the value as the planner's typed value (null and unknown kept).
func (v AttrValue) Str() Val[string] { return valOf(v, v.str) }
func (v AttrValue) Int() Val[int64]  { return valOf(v, v.num) }
func (v AttrValue) Bool() Val[bool]  { return valOf(v, v.boolean) }

func valOf[T comparable](v AttrValue, x T) Val[T] {
	switch {
	case v.unknown:
		return Unknown[T]()
	case v.null:
		return Null[T]()
	}
	return Known(x)
}

// String is the string, "" when null or unknown (as the framework's ValueString).
func (v AttrValue) String() string { return v.Str().Value() }

// Elements are a list's or a set's elements; Attributes an object's or a map's.
func (v AttrValue) Elements() []AttrValue            { return v.elems }
func (v AttrValue) Attributes() map[string]AttrValue { return v.attrs }

// WhollyKnown: the value and every element of it are known (a null element counts as known).
func (v AttrValue) WhollyKnown() bool {
	if v.unknown {
		return false
	}
	for _, e := range v.elems {
		if !e.WhollyKnown() {
			return false
		}
	}
	for _, a := range v.attrs {
		if !a.WhollyKnown() {
			return false
		}
	}
	return true
}

// Strings are a known list's or set's strings in their order (nil when null or unknown).
func (v AttrValue) Strings() []string {
	if !v.IsKnown() {
		return nil
	}
	out := make([]string, 0, len(v.elems))
	for _, e := range v.elems {
		out = append(out, e.str)
	}
	return out
}

// StringMap is a known map's strings (empty when null or unknown).
func (v AttrValue) StringMap() map[string]string {
	out := map[string]string{}
	if v.IsKnown() {
		for k, e := range v.attrs {
			out[k] = e.str
		}
	}
	return out
}

// Equal: the two values are the same (state, element and attribute alike).
func (v AttrValue) Equal(w AttrValue) bool {
	if v.null != w.null || v.unknown != w.unknown || v.str != w.str || v.num != w.num || v.boolean != w.boolean ||
		len(v.elems) != len(w.elems) || len(v.attrs) != len(w.attrs) {
		return false
	}
	for i := range v.elems {
		if !v.elems[i].Equal(w.elems[i]) {
			return false
		}
	}
	for k, a := range v.attrs {
		b, ok := w.attrs[k]
		if !ok || !a.Equal(b) {
			return false
		}
	}
	return true
}

// Has: the object has the attribute (set or null), so the resource's schema has it.
func (v AttrValue) Has(name string) bool {
	_, ok := v.attrs[name]
	return ok
}
