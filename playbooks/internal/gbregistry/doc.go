// Command gbregistry writes playbooks/registry_gen.go from the copy of PyTorch's graph-break registry in
// playbooks/registry/ (torch/_dynamo/graph_break_registry.json of one torch release): per GB id its gb_type, the
// gb_types it had before, the explanation and the hints, made readable (the registry keeps some as the Python
// source they came from: string fragments of one sentence, `"a" + b` expressions, a variable's name). The words
// stay PyTorch's; `{…}` placeholders stay as they are. `go generate ./...` runs it (the directive is in
// playbooks/registry.go); gen_test.go fails when the committed file differs from what it writes.
//
// It imports nothing of this module and is never linked into torchtriage: the binary carries the generated Go data,
// not the JSON, so nothing is parsed at start-up.
package main
