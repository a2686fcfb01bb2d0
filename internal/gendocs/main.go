package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("out", "docs", "the docs directory to write commands/ and keys.md into")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}
