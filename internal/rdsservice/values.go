package rdsservice

// Val is a configured or planned value: null (not set), unknown (known only at apply) or known.
type Val[T comparable] struct {
	v     T
	known bool
	unk   bool
}

// Known returns a known value.
func Known[T comparable](v T) Val[T] { return Val[T]{v: v, known: true} }

// Unknown returns a value known only at apply.
func Unknown[T comparable]() Val[T] { return Val[T]{unk: true} }

// Null returns an unset value.
func Null[T comparable]() Val[T] { return Val[T]{} }

// IsKnown, IsUnknown and IsNull tell the three states apart.
func (x Val[T]) IsKnown() bool   { return x.known }
func (x Val[T]) IsUnknown() bool { return x.unk }
func (x Val[T]) IsNull() bool    { return !x.known && !x.unk }

// Value is the value, or T's zero value when it is not known.
func (x Val[T]) Value() T { return x.v }

// Is reports whether the value is known and equal to v.
func (x Val[T]) Is(v T) bool { return x.known && x.v == v }

// Or is the value when known, def otherwise.
func (x Val[T]) Or(def T) T {
	if x.known {
		return x.v
	}
	return def
}

// Ptr is a pointer to the value when known, nil otherwise.
func (x Val[T]) Ptr() *T {
	if !x.known {
		return nil
	}
	v := x.v
	return &v
}
