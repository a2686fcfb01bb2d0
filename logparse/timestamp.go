package logparse

import "time"

// ParseWhen reads the glog "MMDD HH:MM:SS.ffffff", the C++ "MMDD HH:MM:SS.fffffffff" and the
// "YYYY-MM-DD HH:MM:SS,mmm" forms. Glog carries no year: year 0 is used. It reads the bytes of the line (no
// copy: every record's first line has one).
func ParseWhen(s []byte) time.Time {
	if len(s) >= 23 && s[4] == '-' {
		t, err := time.Parse("2006-01-02 15:04:05,000", string(s[:23]))
		if err == nil {
			return t
		}
		return time.Time{}
	}
	if len(s) < 13 || s[4] != ' ' || s[7] != ':' {
		return time.Time{}
	}
	num := func(a, b int) int {
		n, ok := atoi(s[a:b])
		if !ok {
			return -1
		}
		return n
	}
	mo, d, h, mi, sec := num(0, 2), num(2, 4), num(5, 7), num(8, 10), num(11, 13)
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60 {
		return time.Time{}
	}
	ns := 0
	if len(s) > 14 && s[13] == '.' {
		frac := s[14:]
		if len(frac) > 9 {
			frac = frac[:9]
		}
		if f, ok := atoi(frac); ok {
			for i := len(frac); i < 9; i++ {
				f *= 10
			}
			ns = f
		}
	}
	return time.Date(0, time.Month(mo), d, h, mi, sec, ns, time.UTC)
}
