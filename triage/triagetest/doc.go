// Package triagetest builds analyses for the tests of the packages that read them (render, gate, compare,
// story, tui): from the fixtures under testdata/ and from synthetic records, as triage's own tests do. Only
// tests import it.
package triagetest
