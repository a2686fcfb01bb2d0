// Package numshape masks the numbers of a text into a shape key (each run of digits that is not part of a name,
// by its length and whether it is below a limit the caller names) and finds where each number of a text lands in
// a word made from it, so that words of one text can be made for another text of the same shape with its own
// numbers (triage/report's guard memo, guards_shape.go); and what number literal a text is (IsInt, IsFloat). It
// knows nothing of guards.
package numshape
