package numshape

import "strings"

// IsFloat reports -?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+|inf|nan) (no regexp: it runs on every value guard that is no int, triage/report).
func IsFloat(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if v == "inf" || v == "nan" {
		return true
	}
	digits := func(s string) int { // how many leading ASCII digits
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return n
	}
	n := digits(v)
	v = v[n:]
	if v == "" { // digits only: an int, not a float
		return false
	}
	dot := v[0] == '.'
	if dot {
		frac := digits(v[1:])
		if n == 0 && frac == 0 {
			return false
		}
		v = v[1+frac:]
		if v == "" {
			return true // 1. 1.5 .5
		}
		if n == 0 {
			return false // .5e3 is not one of its forms
		}
	}
	if n == 0 || v[0] != 'e' && v[0] != 'E' {
		return false
	}
	v = v[1:]
	if v != "" && (v[0] == '+' || v[0] == '-') {
		v = v[1:]
	}
	return v != "" && digits(v) == len(v)
}

// IsInt reports -?[0-9]+ (no regexp: it runs on every value guard, triage/report).
func IsInt(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}
