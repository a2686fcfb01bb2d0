// Package testlogs makes logs for tests from the real fixtures under testdata (it is used by tests only): logs as
// several ranks print them, where no recording has that shape. It imports nothing of the module.
package testlogs
