package lineidx

// blockLen is how many offsets a block holds.
const blockLen = 256

// Offsets is an append-only list of ascending offsets. A block keeps its first offset and the deltas of the
// rest: two bytes each while every delta of the block fits, else the offsets themselves (a block of long
// lines). So offsets 64 lines of ~100 bytes apart cost ~2.3 bytes each, not 8.
type Offsets struct {
	blocks []block // complete blocks: never changed once here
	tail   block   // the block still filled: a copy of Offsets has its own header
	n      int
}

type block struct {
	base  int64
	delta []uint16 // offset k is base plus delta[:k]'s sum (each offset's distance from the one before)
	wide  []int64  // when a delta does not fit: every offset of the block, in full (delta then stays nil)
	last  int64    // the last offset added (the writer's; a copy reads only up to its length)
	n     int
}

// Len is how many offsets the list has.
func (o Offsets) Len() int { return o.n }

// Append adds v, which must not be less than the last offset.
func (o *Offsets) Append(v int64) {
	if o.tail.n == blockLen {
		o.tail.delta, o.tail.wide = clip(o.tail.delta), clip(o.tail.wide)
		o.blocks = append(o.blocks, o.tail)
		o.tail = block{}
	}
	t := &o.tail
	switch {
	case t.n == 0:
		t.base = v
	case t.wide != nil:
		t.wide = append(t.wide, v)
	case v-t.last <= 0xffff:
		t.delta = append(t.delta, uint16(v-t.last))
	default: // a delta too big for two bytes: this block keeps its offsets whole
		wide := make([]int64, t.n, blockLen)
		for k := range wide {
			wide[k] = t.at(k)
		}
		t.wide, t.delta = append(wide, v), nil
	}
	t.last = v
	t.n++
	o.n++
}

// At returns offset i (0 ≤ i < Len).
func (o Offsets) At(i int) int64 {
	b := &o.tail
	if k := i / blockLen; k < len(o.blocks) {
		b = &o.blocks[k]
	}
	return b.at(i % blockLen)
}

func (b *block) at(k int) int64 {
	if b.wide != nil {
		return b.wide[k]
	}
	v := b.base
	for _, d := range b.delta[:k] {
		v += int64(d)
	}
	return v
}

// Bytes is about how many bytes the list takes (its blocks' headers and contents).
func (o Offsets) Bytes() int {
	n := (cap(o.blocks) + 1) * blockSize
	for _, b := range o.blocks {
		n += 2*cap(b.delta) + 8*cap(b.wide)
	}
	return n + 2*cap(o.tail.delta) + 8*cap(o.tail.wide)
}

const blockSize = 8 + 24 + 24 + 8 + 8

func clip[T any](s []T) []T { return s[:len(s):len(s)] }
