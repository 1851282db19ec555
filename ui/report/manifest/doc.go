// Package manifest writes the files that deploy a decision: for the stack
// stackpick picked, the Kubernetes objects, the Compose file, the Ray Serve
// or Triton configuration that run it, from the same decision and engine
// configuration the memo and the launch command are written from (the
// launch command's arguments are the container's arguments, taken from
// decide.EngineConfig.Argv).
//
// It is part of ui/report, the one place that words a decision: each file
// starts with a header naming the decision, what was checked and what only
// a cluster can check, and each field that is not boilerplate says which
// rule or figure produced it. A value stackpick cannot know is a named
// placeholder (${NAME}) that the header explains and --set fills.
//
// It imports decide/ and knowledge/ only: no terminal, no file system (the
// caller writes the files), no validator (the schemas are checked by the
// tests in manifest/check, which the binary never links).
package manifest
