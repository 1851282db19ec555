package sizing

// Fit is the outcome of searching for the smallest parallel layout.
type Fit struct {
	Result Result `json:"result"`
	// Tried lists every layout tried, smallest first, with why it failed.
	Tried []Tried `json:"tried"`
}

// Tried is one layout SmallestTP considered.
type Tried struct {
	TP          int     `json:"tensor_parallel_size"`
	PP          int     `json:"pipeline_parallel_size"`
	Fits        bool    `json:"fits"`
	Concurrency float64 `json:"max_concurrency"`
	Why         string  `json:"why,omitempty"`
}

// TPCandidates lists the tensor-parallel sizes vLLM accepts for a, up to
// max: powers of two and other divisors of the attention heads whose split
// of the KV heads is even (or replicates whole heads).
func TPCandidates(a Arch, maxTP int) []int {
	var out []int
	for tp := 1; tp <= maxTP; tp++ {
		if a.Heads > 0 && a.Heads%tp != 0 {
			continue
		}
		if a.KVLoraRank == 0 && a.KVHeads > 0 && a.KVHeads%tp != 0 && tp%a.KVHeads != 0 {
			continue
		}
		out = append(out, tp)
	}
	return out
}

// SmallestTP finds the smallest layout whose KV pool holds at least
// Settings.MinConcurrency requests of Settings.ContextTokens: tensor
// parallelism inside one node of maxTP GPUs first, then pipeline stages
// across up to maxPP nodes at the largest TP. Settings.TP and PP are
// ignored. It returns an InputError when nothing fits.
func SmallestTP(in Input, maxTP, maxPP int) (Fit, error) {
	var fit Fit
	maxTP, maxPP = max(1, maxTP), max(1, maxPP)
	want := float64(max(1, in.Settings.MinConcurrency))
	try := func(tp, pp int) (Result, bool, error) {
		x := in
		x.Settings.TP, x.Settings.PP = tp, pp
		r, err := size(x, false)
		if err != nil {
			return r, false, err
		}
		t := Tried{TP: tp, PP: pp, Fits: r.Fits && r.MaxConcurrency >= want, Concurrency: r.MaxConcurrency, Why: r.Reason}
		if r.Fits && !t.Fits {
			is := "asked for"
			if in.Settings.MinConcurrencyIs != "" {
				is = in.Settings.MinConcurrencyIs
			}
			t.Why = f("holds %s requests of %s tokens, fewer than the %s %s", trimFloat2(r.MaxConcurrency), n(in.Settings.ContextTokens), trimFloat(want), is)
		}
		fit.Tried = append(fit.Tried, t)
		return r, t.Fits, nil
	}
	cands := TPCandidates(in.Arch, maxTP)
	if len(cands) == 0 {
		return fit, &InputError{Field: "--tensor-parallel-size", Problem: f("no tensor-parallel size up to %d splits %d attention heads and %d KV heads evenly", maxTP, in.Arch.Heads, in.Arch.KVHeads)}
	}
	var last Result
	for _, tp := range cands {
		r, ok, err := try(tp, 1)
		if err != nil {
			return fit, err
		}
		last = r
		if ok {
			fit.Result, err = describeAt(in, tp, 1)
			return fit, err
		}
	}
	top := cands[len(cands)-1]
	// More pipeline stages only ever free memory per GPU (fewer layers of
	// weights and KV on each), so the smallest stage count that fits is
	// found by bisection: check the largest, then halve the gap.
	hiPP := min(maxPP, in.Arch.Layers)
	if hiPP >= 2 {
		r, ok, err := try(top, hiPP)
		if err != nil {
			return fit, err
		}
		last = r
		if ok {
			lo, hi := 1, hiPP // lo does not fit (or is TP-only), hi fits
			for hi-lo > 1 {
				mid := (lo + hi) / 2
				_, ok, err := try(top, mid)
				if err != nil {
					return fit, err
				}
				if ok {
					hi = mid
				} else {
					lo = mid
				}
			}
			fit.Result, err = describeAt(in, top, hi)
			return fit, err
		}
	}
	fit.Result, _ = describeAt(in, last.TensorParallelSize, last.PipelineParallelSize)
	where := f("%s of one node", gpusWord(maxTP))
	if maxPP > 1 {
		where = f("%d nodes of %s (TP %d × PP %d)", maxPP, gpusWord(maxTP), top, min(maxPP, in.Arch.Layers))
	}
	return fit, &InputError{Field: "--model", Problem: f("%s does not fit %s even at the largest layout, with %s of %s tokens: %s",
		orDash(in.Arch.Name), where, requestsWord(want), n(in.Settings.ContextTokens), lastWhy(fit))}
}

// describeAt sizes the chosen layout again with its figures and formulas.
func describeAt(in Input, tp, pp int) (Result, error) {
	in.Settings.TP, in.Settings.PP = tp, pp
	return Size(in)
}

func lastWhy(fit Fit) string {
	if len(fit.Tried) == 0 {
		return "nothing was tried"
	}
	return fit.Tried[len(fit.Tried)-1].Why
}

// At sizes in at one layout, tensor-parallel tp × pipeline pp, with its
// figures: for a caller that picks the layout for another reason than
// memory (a latency target asks for a larger TP than the smallest that
// fits). It checks the input like Size.
func At(in Input, tp, pp int) (Result, error) { return describeAt(in, tp, pp) }

// StepMillis is the batch-1 decode step time the bandwidth roofline gives
// (weights and one request's KV read per token), in milliseconds: the floor
// of the inter-token latency at this layout. 0 when the GPU's bandwidth is
// unknown.
func (r Result) StepMillis() float64 {
	if r.DecodeTokensPerSecond <= 0 {
		return 0
	}
	return 1000 / r.DecodeTokensPerSecond
}

// Numbers is At without the figures and their formulas: for comparing
// layouts, where only the numbers count.
func Numbers(in Input, tp, pp int) (Result, error) {
	in.Settings.TP, in.Settings.PP = tp, pp
	return size(in, false)
}

// requestsWord is "1 request" or "n requests" (n may be a fraction).
func requestsWord(n float64) string {
	if n == 1 {
		return "1 request"
	}
	return trimFloat(n) + " requests"
}

// gpusWord is "1 GPU" or "n GPUs".
func gpusWord(n int) string {
	if n == 1 {
		return "1 GPU"
	}
	return f("%d GPUs", n)
}
