package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	in := flag.String("in", "", "the registry copy: registry/graph_break_registry-<torch version>.json")
	out := flag.String("out", "registry_gen.go", "the Go file to write")
	flag.Parse()
	if *in == "" {
		fmt.Fprintln(os.Stderr, "gbregistry: -in is required")
		os.Exit(2)
	}
	src, err := generateFile(*in)
	if err == nil {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gbregistry:", err)
		os.Exit(1)
	}
}
