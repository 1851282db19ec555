// Package sizing is the engine arithmetic behind stackpick's launch command:
// weights per GPU, KV bytes per token, the KV pool as vLLM forms it at start
// (gpu-memory-utilization × total − weights − activation peak − non-torch
// memory), the KV tokens in whole blocks, concurrency at a context length,
// the smallest tensor-parallel size that fits, replicas per node and a
// bandwidth roofline for batch-1 decode. Every result carries Figures: the
// formula with the numbers filled in and where each constant comes from.
//
// It is pure (no I/O, clock or randomness) and imports only knowledge/ for
// the catalog types; it must not import ui/ or any Charm package.
package sizing
