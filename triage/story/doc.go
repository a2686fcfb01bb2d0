// Package story is the bringup log of a session: every run of one run store, oldest first, analysed like
// `report`, with what changed since the previous run and what it fixed or broke against the previous comparable
// one (text, markdown, JSON); and the one-line note a run can carry (SetNote).
package story
