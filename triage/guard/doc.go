// Package guard classifies the text of one guard that failed, as any torch version prints it (2.6's "tensor
// 'L['x']' size mismatch at index 0. expected 4, actual 8", 2.14's "scale == 2.0  # x = x * scale  # r.py:16 in f",
// value guards, object ids, dict keys, hasattr, globals, closure cells, None tests): Classify gives its Class (the
// guard's shape, its source and values), the words a recompile's cause is told in. It reads a text and nothing
// else: which failure of a recompile is its cause, the memo of classes and what a class means to a finding are the
// report's and the findings' (triage/report, triage/findings).
package guard
