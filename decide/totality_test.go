package decide_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// factor is one answer key with one representative value per class: values
// that no rule or landmine condition tells apart are one class.
type factor struct {
	q    int
	reps []knowledge.Value
}

// classes derives the representatives of every answer key from the
// conditions of the knowledge base.
func classes(kb *knowledge.KB) []factor {
	var fs []factor
	conds := func(key string) []knowledge.Cond {
		var out []knowledge.Cond
		for _, r := range kb.Rules {
			for _, c := range r.Conds {
				if c.Key == key {
					out = append(out, c)
				}
			}
		}
		for _, p := range kb.Products {
			for _, m := range p.Landmines {
				for _, c := range m.Conds {
					if c.Key == key {
						out = append(out, c)
					}
				}
			}
		}
		return out
	}
	for qi, q := range kb.Questions {
		if q.Derived {
			continue
		}
		f := factor{q: qi}
		switch q.Type {
		case knowledge.TypeBool:
			f.reps = []knowledge.Value{{Bool: false}, {Bool: true}}
		case knowledge.TypeEnum:
			mentioned := map[string]bool{}
			for _, c := range conds(q.Key) {
				for _, s := range append([]string{c.Str}, c.Strs...) {
					mentioned[s] = true
				}
			}
			// Values no condition names are one class; for gpu, the vendor
			// (a derived answer rules test) splits that class.
			seenOther := map[string]bool{}
			for _, v := range q.Values {
				group := "other"
				if q.Key == "gpu" {
					group = kb.GPU(v).Vendor
				}
				if mentioned[v] || !seenOther[group] {
					f.reps = append(f.reps, knowledge.Value{Str: v})
					if !mentioned[v] {
						seenOther[group] = true
					}
				}
			}
		case knowledge.TypeList:
			cuts := []int{0}
			var named []string
			for _, c := range conds(q.Key) {
				switch c.Op {
				case knowledge.OpAtLeast:
					cuts = append(cuts, c.Int)
				case knowledge.OpAtMost:
					cuts = append(cuts, c.Int+1)
				default:
					named = append(named, c.Strs...)
				}
			}
			slices.Sort(named)
			named = slices.Compact(named)
			for _, n := range cuts {
				if n <= len(q.Values) {
					f.reps = append(f.reps, knowledge.Value{List: slices.Clone(q.Values[:n])})
				}
			}
			for _, v := range named { // each named item on its own
				f.reps = append(f.reps, knowledge.Value{List: []string{v}})
			}
		case knowledge.TypeInt:
			lo, hi := 0, 1<<30
			if q.Min != nil {
				lo = *q.Min
			}
			if q.Max != nil {
				hi = *q.Max
			}
			cuts := []int{lo}
			for _, t := range decide.Thresholds(kb, q.Key) {
				cuts = append(cuts, t, t+1)
			}
			if len(decide.Thresholds(kb, q.Key)) == 0 {
				// Read by the engine settings only (targets, traffic): a
				// value, a small one and a large one.
				cuts = append(cuts, lo+1, lo+50, lo+5000)
			}
			if q.Key == "replicas" {
				for _, t := range decide.Thresholds(kb, knowledge.DerivedReplicasPerModel) {
					cuts = append(cuts, t-1, t, t+1)
				}
			}
			if q.Key == "nodes" || q.Key == "base_models" {
				for _, t := range decide.Thresholds(kb, knowledge.DerivedReplicasPerModel) {
					cuts = append(cuts, t, t+1, 2*t)
				}
			}
			if q.Key == "gpus_per_node" || q.Key == "nodes" {
				// total_gpus = nodes × gpus_per_node: reach each of its
				// thresholds from below and above with one node.
				for _, t := range decide.Thresholds(kb, knowledge.DerivedTotalGPUs) {
					cuts = append(cuts, t-1, t)
				}
			}
			slices.Sort(cuts)
			for _, c := range slices.Compact(cuts) {
				if c >= lo && c <= hi {
					f.reps = append(f.reps, knowledge.Value{Int: c})
				}
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// coveringArray builds rows (level indexes per factor) so that every
// combination of levels of every 3 factors appears in some row: greedy,
// AETG-style, seeded.
func coveringArray(levels []int, seed uint64) [][]int {
	k := len(levels)
	type triple struct{ a, b, c int }
	var triples []triple
	index := map[triple]int{}
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			for c := b + 1; c < k; c++ {
				index[triple{a, b, c}] = len(triples)
				triples = append(triples, triple{a, b, c})
			}
		}
	}
	covered := make([][]bool, len(triples))
	uncovered := 0
	for i, t := range triples {
		covered[i] = make([]bool, levels[t.a]*levels[t.b]*levels[t.c])
		uncovered += len(covered[i])
	}
	cell := func(t triple, row []int) int {
		return (row[t.a]*levels[t.b]+row[t.b])*levels[t.c] + row[t.c]
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var rows [][]int
	for uncovered > 0 {
		// Seed the row with one uncovered combination.
		row := make([]int, k)
		for i := range row {
			row[i] = -1
		}
	seedLoop:
		for ti, t := range triples {
			for ci, done := range covered[ti] {
				if !done {
					row[t.c] = ci % levels[t.c]
					row[t.b] = (ci / levels[t.c]) % levels[t.b]
					row[t.a] = ci / (levels[t.c] * levels[t.b])
					break seedLoop
				}
			}
		}
		order := rng.Perm(k)
		for _, f := range order {
			if row[f] >= 0 {
				continue
			}
			best, bestGain := 0, -1
			for lv := 0; lv < levels[f]; lv++ {
				row[f] = lv
				gain := 0
				for g := 0; g < k; g++ {
					for h := g + 1; h < k; h++ {
						if g == f || h == f || row[g] < 0 || row[h] < 0 {
							continue
						}
						ids := []int{f, g, h}
						slices.Sort(ids)
						t := triple{ids[0], ids[1], ids[2]}
						if !covered[index[t]][cell(t, row)] {
							gain++
						}
					}
				}
				if gain > bestGain {
					best, bestGain = lv, gain
				}
			}
			row[f] = best
		}
		for ti, t := range triples {
			if c := cell(t, row); !covered[ti][c] {
				covered[ti][c] = true
				uncovered--
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// randomAnswers draws a full answer set from the whole answer space (not
// only the class representatives): ints spread over orders of magnitude.
func randomAnswers(kb *knowledge.KB, rng *rand.Rand) knowledge.Answers {
	a := kb.Defaults()
	for qi, q := range kb.Questions {
		if q.Derived {
			continue
		}
		var v knowledge.Value
		switch q.Type {
		case knowledge.TypeBool:
			v.Bool = rng.IntN(2) == 1
		case knowledge.TypeEnum:
			v.Str = q.Values[rng.IntN(len(q.Values))]
		case knowledge.TypeList:
			for _, x := range q.Values {
				if rng.IntN(3) == 0 {
					v.List = append(v.List, x)
				}
			}
		case knowledge.TypeInt:
			lo, hi := 0, 1<<20
			if q.Min != nil {
				lo = *q.Min
			}
			if q.Max != nil {
				hi = *q.Max
			}
			span := hi - lo
			// Log-uniform: small values as likely as large ones.
			limit := 1 << rng.IntN(21)
			v.Int = lo + rng.IntN(min(span, limit)+1)
		}
		// About half the answers are the user's, the rest defaults: the
		// sweep checks assumptions against both.
		if rng.IntN(2) == 0 {
			a = a.Confirm(qi, v)
		} else {
			a.Put(qi, v)
		}
	}
	return a
}

// encoder marshals into a reused buffer (one per worker).
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newEncoder() *encoder {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	return e
}

func (e *encoder) bytes(v any) ([]byte, error) {
	e.buf.Reset()
	err := e.enc.Encode(v)
	return e.buf.Bytes(), err
}

// checkComplete asserts the promises every decision keeps.
func checkComplete(c *decide.Compiled, a knowledge.Answers, e1, e2 *encoder) error {
	kb := c.KB()
	d := c.Decide(a)
	if _, err := e1.bytes(d); err != nil {
		return err
	}
	// Equal values marshal to equal bytes (encoding/json is deterministic
	// for structs and slices, and sorts map keys), so comparing the second
	// run's value to the first is comparing their bytes, at half the cost.
	if again := c.Decide(a); !reflect.DeepEqual(d, again) {
		first, _ := e1.bytes(d)
		second, _ := e2.bytes(again)
		diff := ""
		dv, av := reflect.ValueOf(d), reflect.ValueOf(again)
		for i := 0; i < dv.NumField(); i++ {
			if !reflect.DeepEqual(dv.Field(i).Interface(), av.Field(i).Interface()) {
				diff += " " + dv.Type().Field(i).Name
			}
		}
		return fmt.Errorf("two runs gave different decisions (bytes equal: %v; differing:%s)", bytes.Equal(first, second), diff)
	}
	if len(d.Layers) != len(kb.Layers) {
		return fmt.Errorf("%d layers, want %d", len(d.Layers), len(kb.Layers))
	}
	for li, lp := range d.Layers {
		if lp.Layer != kb.Layers[li].ID || lp.Pick == "" {
			return fmt.Errorf("layer %d: no pick", li)
		}
		if lp.Pick == knowledge.None && !kb.Layers[li].Optional {
			return fmt.Errorf("%s: none picked on a required layer", lp.Layer)
		}
		if lp.Pick != knowledge.None && len(lp.Reasons) == 0 {
			return fmt.Errorf("%s: %s picked without a reason", lp.Layer, lp.Pick)
		}
		switch lp.State {
		case decide.StatePicked:
			if lp.Pick == knowledge.None && kb.Layers[li].Optional {
				return fmt.Errorf("%s: state picked for an empty layer", lp.Layer)
			}
		case decide.StateNotNeeded, decide.StateNothingFits:
			if lp.Pick != knowledge.None {
				return fmt.Errorf("%s: state %s with %s picked", lp.Layer, lp.State, lp.Pick)
			}
			if lp.State == decide.StateNothingFits && len(lp.Conflicts) == 0 {
				return fmt.Errorf("%s: nothing fits, and no conflict is named", lp.Layer)
			}
		default:
			return fmt.Errorf("%s: no state", lp.Layer)
		}
		if len(lp.Reasons) == 0 {
			return fmt.Errorf("%s: an empty Why", lp.Layer)
		}
		if err := checkArguments(kb, a, d, lp); err != nil {
			return fmt.Errorf("%s: %v", lp.Layer, err)
		}
		chosen := append([]string{lp.Pick}, lp.Also...)
		for ri, r := range kb.Rules {
			if d.Trace[ri].Fired && r.Effect == knowledge.EffectExclude && r.Layer == lp.Layer && slices.Contains(chosen, r.Product) {
				return fmt.Errorf("%s: %s both picked and excluded by %s", lp.Layer, r.Product, r.ID)
			}
		}
	}
	return checkStack(kb, d)
}

// checkStack: every placed product runs the placed engine and supports the
// fleet's vendor and platform, as the capability facts say.
func checkStack(kb *knowledge.KB, d decide.Decision) error {
	engine := d.Layers[0].Pick
	vendor := d.Answers.Get(knowledge.DerivedGPUVendor).Str
	for _, lp := range d.Layers {
		for _, id := range append([]string{lp.Pick}, lp.Also...) {
			if id == knowledge.None {
				continue
			}
			if vs, ok := kb.Can(id, knowledge.CanVendors); ok && !slices.Contains(vs, vendor) {
				return fmt.Errorf("%s placed on a %s fleet; it supports %v", id, vendor, vs)
			}
			if lp.Layer == knowledge.LayerOrchestrator {
				if es, ok := kb.Can(id, knowledge.CanEngines); ok && !slices.Contains(es, engine) {
					return fmt.Errorf("%s placed with %s; it runs %v", id, engine, es)
				}
			}
		}
	}
	return nil
}

// checkArguments: a tie names its declared tie-break; no rule reason
// asserts a claim its answers deny; every reason that rests on a defaulted
// answer marks it, and the decision lists it among its assumptions.
func checkArguments(kb *knowledge.KB, a knowledge.Answers, d decide.Decision, lp decide.LayerPick) error {
	if cc := lp.CloseCall; cc != nil && cc.Tie && cc.TieBreak == nil {
		return fmt.Errorf("a tie with %s settled without the declared tie-break", cc.Other)
	}
	for _, alt := range lp.Alternatives {
		if alt.Excluded && len(alt.Against) == 0 {
			return fmt.Errorf("%s excluded without saying why", alt.Product)
		}
		if alt.Excluded {
			for _, x := range alt.Against {
				if x.Weight != 0 {
					return fmt.Errorf("%s excluded, and a score penalty is listed against it", alt.Product)
				}
			}
		}
		if len(alt.WhyNot) == 0 {
			return fmt.Errorf("%s lost without an argument", alt.Product)
		}
	}
	assumed := map[string]bool{}
	for _, x := range d.Assumptions {
		assumed[x.Key] = true
		if a.StatedKey(x.Key) {
			return fmt.Errorf("stated answer %s listed as an assumption", x.Key)
		}
	}
	for _, r := range lp.Reasons {
		if r.Kind != decide.KindRule {
			continue
		}
		rule := ruleByID(kb, r.Rule)
		for _, cd := range rule.Conds {
			for _, k := range append([]string{cd.Key}, feedsOfIn(a, cd.Key)...) {
				if kb.Question(k) == nil || kb.Question(k).Derived || a.StatedKey(k) {
					continue
				}
				if !slices.Contains(r.Assumes, k) || !assumed[k] {
					return fmt.Errorf("reason %s rests on defaulted %s without marking it", r.Rule, k)
				}
			}
		}
		// A claim's phrase must hold by at least one of the claims that
		// share it (they are alternatives).
		denied := map[string]string{}
		held := map[string]bool{}
		for _, cl := range kb.Claims {
			if !knowledge.MentionsClaim(r.Text, cl) {
				continue
			}
			if why := claimDenied(a, d, cl); why != "" {
				denied[cl.Phrase] = why
			} else {
				held[cl.Phrase] = true
			}
		}
		for phrase, why := range denied {
			if !held[phrase] {
				return fmt.Errorf("reason %s says %q, and %s", r.Rule, phrase, why)
			}
		}
	}
	return nil
}

func claimDenied(a knowledge.Answers, d decide.Decision, cl *knowledge.Claim) string {
	vals := a.Values()
	for i := range cl.Conds {
		if !cl.Conds[i].Holds(vals[cl.Conds[i].Q]) {
			return "the answers deny it (" + cl.Conds[i].Text + ")"
		}
	}
	for layer, ids := range cl.Stack {
		for _, l := range d.Layers {
			if l.Layer == layer && !slices.Contains(ids, l.Pick) {
				return "the stack's " + layer + " is " + l.Pick
			}
		}
	}
	return ""
}

func ruleByID(kb *knowledge.KB, id string) *knowledge.Rule {
	for _, r := range kb.Rules {
		if r.ID == id {
			return r
		}
	}
	return &knowledge.Rule{}
}

func feedsOf(key string) []string { return knowledge.DerivedFrom[key] }

// feedsOfIn is feedsOf for given answers: the platform comes from a
// substrate other than auto, else from the kubernetes answer.
func feedsOfIn(a knowledge.Answers, key string) []string {
	if key == knowledge.DerivedPlatform {
		if a.Get(knowledge.KeySubstrate).Str != knowledge.SubstrateAuto {
			return []string{knowledge.KeySubstrate}
		}
		return []string{knowledge.KeyKubernetes}
	}
	return feedsOf(key)
}

// sweep runs check over every answer set from next, on all cores, and
// returns the first failure with the answers that caused it.
func sweep(kb *knowledge.KB, n int, next func(i int) knowledge.Answers) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	workers := runtime.GOMAXPROCS(0)
	c := decide.Compile(kb)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e1, e2 := newEncoder(), newEncoder()
			for i := w; i < n; i += workers {
				a := next(i)
				if err := checkComplete(c, a, e1, e2); err != nil {
					mu.Lock()
					if firstErr == nil {
						js, _ := json.Marshal(a)
						firstErr = fmt.Errorf("answer set %d: %v\n%s", i, err, js)
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// Totality: every answer set yields a complete decision. The space is
// covered by every 3-way combination of answer classes (a covering array)
// plus a seeded random sample from the whole answer space.
func TestEveryAnswerSetYieldsACompleteDecision(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(2000)) // the sweep allocates briskly; collect less often
	fs := classes(kb)
	levels := make([]int, len(fs))
	space := 1.0
	for i, f := range fs {
		levels[i] = len(f.reps)
		space *= float64(len(f.reps))
	}
	rows := coveringArray(levels, 42)
	fromRowAt := func(i int) knowledge.Answers {
		a := kb.Defaults()
		for fi, f := range fs {
			a.Put(f.q, f.reps[rows[i][fi]])
		}
		return a
	}
	// Under the race detector the sweep checks the code's concurrency, not
	// the space: every 16th row, and a tenth of the sample.
	stride := 1
	if raceDetector {
		stride = 16
	}
	fromRow := func(i int) knowledge.Answers { return fromRowAt(i * stride) }
	nrows := (len(rows) + stride - 1) / stride
	if err := sweep(kb, nrows, fromRow); err != nil {
		t.Fatal(err)
	}
	// The whole-stack search makes a decision about ten times the cost
	// it was when the stack was chosen layer by layer: the covering array
	// keeps every 3-way combination of classes, and the random sample
	// shrinks to keep the sweep within its time budget.
	samples := 9_000
	if testing.Short() {
		samples = 2_000
	}
	if raceDetector {
		samples /= 10
	}
	fromSeed := func(i int) knowledge.Answers {
		return randomAnswers(kb, rand.New(rand.NewPCG(uint64(i), 2026)))
	}
	if err := sweep(kb, samples, fromSeed); err != nil {
		t.Fatal(err)
	}
	t.Logf("answer classes: %d keys, %v levels, %.3g class combinations in all", len(fs), levels, space)
	t.Logf("ran %d of %d covering-array rows (all of them cover every 3-way class combination) + %d seeded random answer sets = %d decisions, each twice", nrows, len(rows), samples, nrows+samples)
}

// The covering array really covers every 3-way combination.
func TestCoveringArrayCoversEveryTriple(t *testing.T) {
	levels := []int{2, 3, 2, 4, 3}
	rows := coveringArray(levels, 1)
	for a := range levels {
		for b := a + 1; b < len(levels); b++ {
			for c := b + 1; c < len(levels); c++ {
				for x := range levels[a] {
					for y := range levels[b] {
						for z := range levels[c] {
							if !slices.ContainsFunc(rows, func(r []int) bool { return r[a] == x && r[b] == y && r[c] == z }) {
								t.Fatalf("factors %d,%d,%d levels %d,%d,%d not covered", a, b, c, x, y, z)
							}
						}
					}
				}
			}
		}
	}
}

func BenchmarkTotalitySweep(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(2000))
	fs := classes(kb)
	levels := make([]int, len(fs))
	for i, f := range fs {
		levels[i] = len(f.reps)
	}
	for b.Loop() {
		rows := coveringArray(levels, 42)
		_ = sweep(kb, len(rows), func(i int) knowledge.Answers {
			a := kb.Defaults()
			for fi, f := range fs {
				a.Put(f.q, f.reps[rows[i][fi]])
			}
			return a
		})
		_ = sweep(kb, 9_000, func(i int) knowledge.Answers {
			return randomAnswers(kb, rand.New(rand.NewPCG(uint64(i), 2026)))
		})
	}
}

func BenchmarkDecideRandomAnswers(b *testing.B) {
	sets := make([]knowledge.Answers, 1000)
	for i := range sets {
		sets[i] = randomAnswers(kb, rand.New(rand.NewPCG(uint64(i), 2026)))
	}
	c := decide.Compile(kb)
	i := 0
	for b.Loop() {
		c.Decide(sets[i%len(sets)])
		i++
	}
}
