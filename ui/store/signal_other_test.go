//go:build !unix

package store_test

const signalHelperEnv = "STACKPICK_TEST_SIGNAL_WRITE"

func signalHelper(string) {}
