// Package testlogs makes logs for tests from the real fixtures under testdata (it is used by tests only): logs as
// several ranks print them, where no recording has that shape. Path finds the module's top-level testdata/ from
// any package's tests, the one place they read fixtures from. It imports nothing of the module.
package testlogs
