package lineidx

import "slices"

// chunkLen is how many lines' values a chunk holds.
const chunkLen = 1 << 16 // a place within a chunk fits a uint16

// Values is an append-only list of small numbers, one a line, most of them None: a chunk of lines keeps the lines
// that have a value (two bytes of place, two of value) until it has so many that two bytes a line is less. A
// stretch of lines without values (a chatty print loop) costs nothing; a log whose every line has one, two
// bytes a line.
type Values struct {
	chunks []chunk // complete chunks: never changed once here
	tail   chunk   // the chunk still filled
	n      int
}

// None is the value of a line that has none.
const None = -1

type chunk struct {
	at    []uint16 // sparse: the lines (within the chunk) that have a value, ascending
	val   []int16  // and their values
	dense []int16  // dense: every line's value (at and val then stay nil)
}

// Len is how many lines the list has.
func (v Values) Len() int { return v.n }

// Append adds the next line's value (None or ≥ 0).
func (v *Values) Append(x int16) {
	j := v.n % chunkLen
	if j == 0 && v.n > 0 {
		v.chunks = append(v.chunks, v.tail.clip())
		v.tail = chunk{}
	}
	v.n++
	t := &v.tail
	switch {
	case t.dense != nil:
		t.dense = append(t.dense, x)
	case x == None:
	case len(t.at) < chunkLen/2:
		t.at, t.val = append(t.at, uint16(j)), append(t.val, x)
	default: // dense is smaller from here on
		d := make([]int16, j, chunkLen)
		for k := range d {
			d[k] = None
		}
		for k, at := range t.at {
			d[at] = t.val[k]
		}
		t.dense, t.at, t.val = append(d, x), nil, nil
	}
}

// At returns line i's value (None when it has none, or i is out of range).
func (v Values) At(i int) int16 {
	if i < 0 || i >= v.n {
		return None
	}
	c := &v.tail
	if k := i / chunkLen; k < len(v.chunks) {
		c = &v.chunks[k]
	}
	j := i % chunkLen
	if c.dense != nil {
		if j < len(c.dense) {
			return c.dense[j]
		}
		return None
	}
	if k, found := slices.BinarySearch(c.at, uint16(j)); found {
		return c.val[k]
	}
	return None
}

func (c chunk) clip() chunk { return chunk{at: clip(c.at), val: clip(c.val), dense: clip(c.dense)} }

// Bytes is about how many bytes the list takes.
func (v Values) Bytes() int {
	n := (cap(v.chunks)+1)*chunkSize + v.tail.bytes()
	for _, c := range v.chunks {
		n += c.bytes()
	}
	return n
}

const chunkSize = 3 * 24

func (c chunk) bytes() int { return 2*cap(c.at) + 2*cap(c.val) + 2*cap(c.dense) }
