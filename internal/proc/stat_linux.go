package proc

import (
	"bytes"
	"os"
	"strconv"
)

// Stat reads /proc/<pid>/stat.
func Stat(pid int) (Entry, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Entry{}, false
	}
	// "pid (comm) S ppid pgrp ... starttime ..."; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return Entry{}, false
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return Entry{}, false
	}
	e := Entry{State: f[0][0]}
	var err1, err2, err3 error
	e.PPID, err1 = strconv.Atoi(string(f[1]))
	e.Pgrp, err2 = strconv.Atoi(string(f[2]))
	e.Start, err3 = strconv.ParseUint(string(f[19]), 10, 64)
	return e, err1 == nil && err2 == nil && err3 == nil
}
