package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui"
)

// EnvHistory overrides the drill history file (tests, shared machines).
const EnvHistory = "STACKPICK_HISTORY"

// errAbandoned ends a drill whose input ran out before the last answer.
var errAbandoned = errors.New("drill abandoned: the input ended before the last answer; nothing was recorded")

func (a *app) drillCommand() *cobra.Command {
	var seed int64
	var scenarioName string
	cmd := &cobra.Command{
		Use:   "drill NAME",
		Short: "Practise the exit test: taxonomy, scenario, flags, explain, or mock",
		Long: `Practise the course notes' exit test ('Engines as Products') until you can do it unaided at a whiteboard.

  taxonomy  place each product in its layer
  scenario  choose and defend a stack for a scenario (--scenario NAME or --seed N)
  flags     the top 12 vLLM flags: defaults, effects, names
  explain   Dynamo vs Dynamo-Triton to a non-specialist, in 90 seconds
  mock      all four in sequence, pass or fail against the course notes' bar
  stats     your progress per drill and the items you miss most

In a terminal the drill opens in the full-screen app (q then goes to the
other drills). When standard input or output is not a terminal, or with
ACCESSIBLE=1, answers are read line by line from standard input, so a drill
can be scripted. Every finished drill is added to the history in the XDG
state folder (or $STACKPICK_HISTORY), and the next drill asks what you
missed most more often.`,
		Example: `  stackpick drill taxonomy
  stackpick drill scenario --seed 7
  stackpick drill stats`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				all := append(slices.Clone(drill.Names), "stats")
				return badInputf("drill needs one name: %s (for example: stackpick drill taxonomy)", strings.Join(all, ", "))
			}
			return nil
		},
		ValidArgs: append(slices.Clone(drill.Names), "stats"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			all := append(slices.Clone(drill.Names), "stats")
			if !slices.Contains(all, name) {
				return badInput(&knowledge.Error{File: "drill", Key: name, Problem: "no such drill", Allowed: strings.Join(all, ", "), Hint: hintFor(name, all)})
			}
			if scenarioName != "" && name != drill.Scenario && name != drill.Mock {
				return badInputf("--scenario applies to the scenario and mock drills, not %s", name)
			}
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			if name != "stats" && isTerminal(a.io.Stdin) && isTerminal(a.io.Stdout) && !envTrue(a.getenv("ACCESSIBLE")) {
				var s *uint64
				if cmd.Flags().Changed("seed") {
					v := uint64(seed)
					s = &v
				}
				return a.runDrillApp(cmd, kb, name, s, scenarioName)
			}
			path, err := a.historyPath()
			if err != nil {
				return internal(err)
			}
			clock := a.clock()
			now := clock()
			stamp := now.UTC().Format("20060102T150405")
			records, notice, err := store.LoadHistory(path, stamp)
			if err != nil {
				return fileError(err)
			}
			if notice != "" {
				fmt.Fprintln(a.io.Stderr, "stackpick: "+notice)
			}
			c, err := drill.Load(kb)
			if err != nil {
				return internal(err)
			}
			if name == "stats" {
				text := a.statsText(store.Summarize(records), func(id string) string { return c.ItemName(kb, id) })
				if archives := store.Archives(path); len(archives) > 0 {
					text += fmt.Sprintf("\nOlder records are archived in %s (not counted above).\n", strings.Join(archives, ", "))
				}
				_, err := io.WriteString(a.out(a.io.Stdout), text)
				return err
			}
			s := uint64(seed)
			if !cmd.Flags().Changed("seed") {
				s = uint64(now.UnixNano())
			}
			w := &errWriter{w: a.io.Stdout}
			r := &drillRun{app: a, kb: kb, c: c, in: bufio.NewScanner(a.io.Stdin), w: w, seed: s, misses: store.Misses(records), scenario: scenarioName, now: clock, piped: !isTerminal(a.io.Stdin)}
			rec, err := r.run(name)
			if err != nil {
				if errors.Is(err, errAbandoned) {
					if tui.HungUp(a.io.Stdin) {
						// The terminal went, not a ctrl+d: as a SIGHUP.
						return hungUp()
					}
					return badInput(err)
				}
				return err
			}
			rec.At = now.UTC().Format(time.RFC3339)
			if notice, err := store.AppendHistory(path, rec, stamp); err != nil {
				// The history's path is the user's ($STACKPICK_HISTORY or
				// the XDG folder): a folder that cannot be written is
				// theirs to fix. The result was shown above; the record
				// is given whole, for the user to keep.
				line, _ := json.Marshal(rec)
				return fileError(fmt.Errorf("the drill finished (%s) but its result could not be added to the drill history %s: %w\nthe record, to add to its \"records\" by hand: %s", drill.Fraction(rec.Points, rec.Max), path, err, line))
			} else if notice != "" {
				fmt.Fprintln(a.io.Stderr, "stackpick: "+notice)
			}
			if w.err != nil {
				// Recorded, but the transcript and the result were lost:
				// say where the record is, then the error in the words
				// every command uses for stdout.
				fmt.Fprintf(a.io.Stderr, "stackpick: the drill's result was added to %s, but it could not be shown\n", path)
				cause := w.err
				var pe *fs.PathError
				if errors.As(cause, &pe) {
					cause = pe.Err
				}
				return environmentFault(fmt.Errorf("cannot write to standard output: %w", cause))
			}
			return nil
		},
	}
	cmd.Flags().Int64Var(&seed, "seed", 0, "seed for the question order and a generated scenario (same seed, same drill)")
	cmd.Flags().StringVarP(&scenarioName, "scenario", "s", "", "play the scenario drill on this preset instead of a generated scenario")
	return cmd
}

// runDrillApp opens the full-screen app on one drill, over the drills menu.
func (a *app) runDrillApp(cmd *cobra.Command, kb *knowledge.KB, name string, seed *uint64, scenarioName string) error {
	list, err := scenarios.All(kb)
	if err != nil {
		return badInput(fmt.Errorf("the knowledge base loads, but a preset scenario no longer fits it:\n%w", err))
	}
	if scenarioName != "" {
		if _, err := scenarios.Find(list, scenarioName); err != nil {
			return badInput(err)
		}
	}
	err = tui.Run(cmd.Context(), kb, list, tui.Options{
		NoColor:       a.noColor || a.getenv("NO_COLOR") != "",
		Profile:       a.profile(a.io.Stdout),
		Drill:         name,
		DrillSeed:     seed,
		DrillScenario: scenarioName,
		HistoryPath:   a.getenv(EnvHistory),
		KBDir:         a.overlayDir(),
		Env:           a.io.Env,
		Stdin:         a.io.Stdin,
		Stdout:        a.io.Stdout,
		Stderr:        a.io.Stderr,
		Now:           a.clock(),
	})
	return appError(err)
}

func (a *app) historyPath() (string, error) {
	if p := a.getenv(EnvHistory); p != "" {
		return p, nil
	}
	return store.DefaultHistoryPath()
}

// errWriter keeps the first write error of a drill's transcript: the
// drill goes on (its record is still saved), and the command reports it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// drillRun plays one drill on a line-oriented terminal or pipe.
type drillRun struct {
	app      *app
	kb       *knowledge.KB
	c        *drill.Content
	in       *bufio.Scanner
	w        io.Writer
	seed     uint64
	misses   drill.Misses
	scenario string
	now      func() time.Time // times the explanation
	// piped is set when answers come from a pipe: nothing echoes them, so
	// each answer is echoed here and the transcript reads as one.
	piped bool
}

func (r *drillRun) say(format string, args ...any) { fmt.Fprintf(r.w, format, args...) }

// ask prints a prompt and reads one line; EOF abandons the drill.
func (r *drillRun) ask(prompt string) (string, error) {
	r.say("%s", prompt)
	if !r.in.Scan() {
		r.say("\n")
		return "", errAbandoned
	}
	ans := strings.TrimSpace(r.in.Text())
	if r.piped {
		r.say("%s\n", ans)
	}
	return ans, nil
}

func (r *drillRun) run(name string) (store.Record, error) {
	var rec store.Record
	var err error
	scored := func(sc drill.Score, e error) {
		rec, err = store.NewRecord(name, r.seed, sc), e
	}
	switch name {
	case drill.Taxonomy:
		res, e := r.taxonomy()
		scored(res.Score, e)
	case drill.Scenario:
		res, e := r.scenarioDrill()
		scored(res.Score, e)
	case drill.Flags:
		res, e := r.flags()
		scored(res.Score, e)
	case drill.Explain:
		res, e := r.explain()
		scored(res.Score, e)
	case drill.Mock:
		var res drill.MockResult
		res, err = r.mock()
		rec = store.MockRecord(r.seed, res)
	}
	return rec, err
}

var layerAnswers = map[string]string{
	"e": knowledge.LayerEngine, "engine": knowledge.LayerEngine,
	"m": knowledge.LayerModelServer, "model-server": knowledge.LayerModelServer, "model server": knowledge.LayerModelServer, "server": knowledge.LayerModelServer,
	"o": knowledge.LayerOrchestrator, "orchestrator": knowledge.LayerOrchestrator,
}

func (r *drillRun) taxonomy() (drill.TaxonomyResult, error) {
	r.say("TAXONOMY: place each product in its layer. Answer e (engine), m (model server) or o (orchestrator).\n\n")
	products := r.c.TaxonomyQuiz(r.seed, r.misses)
	placed := map[string]string{}
	for i, id := range products {
		for {
			ans, err := r.ask(fmt.Sprintf("%d/%d  %s: ", i+1, len(products), r.kb.ProductName(id)))
			if err != nil {
				return drill.TaxonomyResult{}, err
			}
			if layer, ok := layerAnswers[strings.ToLower(ans)]; ok {
				placed[id] = layer
				break
			}
			r.say("      type e, m or o\n")
		}
	}
	res := r.c.GradeTaxonomy(r.kb, products, placed)
	r.say("\nResult: %s\n", res.Score.Text())
	for _, p := range res.Placements {
		if p.Right {
			r.say("  ✓ %s: %s\n", r.kb.ProductName(p.Product), report.PlacedText(r.kb, p.Want))
		} else {
			r.say("  ✗ %s: you said %s. %s\n", r.kb.ProductName(p.Product), report.PlacedText(r.kb, p.Got), p.Why)
		}
	}
	return res, nil
}

func (r *drillRun) prompt() (drill.ScenarioPrompt, error) {
	if r.scenario != "" {
		all, err := scenarios.All(r.kb)
		if err != nil {
			return drill.ScenarioPrompt{}, internal(err)
		}
		s, err := scenarios.Find(all, r.scenario)
		if err != nil {
			return drill.ScenarioPrompt{}, badInput(err)
		}
		return drill.PresetPrompt(s), nil
	}
	return r.c.GeneratedPrompt(r.kb, r.seed), nil
}

func (r *drillRun) scenarioDrill() (drill.ScenarioResult, error) {
	p, err := r.prompt()
	if err != nil {
		return drill.ScenarioResult{}, err
	}
	var optional []string
	for _, l := range r.kb.Layers {
		if l.Optional {
			optional = append(optional, strings.ToLower(l.Name))
		}
	}
	r.say("SCENARIO: %s\n\n%s\n\nPick a product per layer by its number or name (none leaves the %s empty), and defend it in one line.\n\n", p.Title, p.Story, strings.Join(optional, " or the "))
	ans := drill.StackAnswer{Picks: map[string]string{}, Defense: map[string]string{}}
	d := decide.Decide(r.kb, p.Answers)
	for _, layer := range r.kb.Layers {
		// The same choices, in the same order, as the app numbers them:
		// the products, then none on an optional layer.
		var choices, names []string
		for _, prod := range r.kb.ProductsOn(layer.ID) {
			choices = append(choices, prod.ID)
			names = append(names, prod.Name)
		}
		if layer.Optional {
			choices = append(choices, knowledge.None)
			names = append(names, report.EmptyLayer(r.kb, layer.ID))
		}
		r.say("%s: which product?\n", layer.Name)
		for i, n := range names {
			r.say("  %d) %s\n", i+1, n)
		}
		for {
			pick, err := r.ask(fmt.Sprintf("%s [1-%d]: ", layer.Name, len(choices)))
			if err != nil {
				return drill.ScenarioResult{}, err
			}
			var want string
			var also []string
			for _, lp := range d.Layers {
				if lp.Layer == layer.ID {
					want, also = lp.Pick, lp.Also
				}
			}
			if id := drill.ParsePick(pick, choices, names, want, also); id != "" {
				ans.Picks[layer.ID] = id
				break
			}
			r.say("      type a number from 1 to %d, or one of: %s%s\n", len(choices), strings.Join(choices, ", "), suggestion(pick, choices))
		}
		line, err := r.ask("  defense: ")
		if err != nil {
			return drill.ScenarioResult{}, err
		}
		ans.Defense[layer.ID] = line
	}
	res := r.c.GradeScenario(r.kb, d, ans)
	r.say("\nResult: %s\n", res.Score.Text())
	for _, g := range res.Layers {
		mark := "✓"
		if !g.Right {
			mark = "✗"
		}
		want := report.PickText(r.kb, decide.LayerPick{Layer: g.Layer, Pick: g.Want, Also: g.Also})
		r.say("  %s %s: you picked %s; stackpick picks %s\n", mark, r.kb.Layer(g.Layer).Name, report.PickedText(r.kb, g.Layer, g.Got), want)
		if len(g.Terms) > 0 {
			r.say("      your defense named: %s\n", strings.Join(g.Terms, ", "))
		}
		for _, reason := range g.Rationale {
			named := "  "
			if slices.Contains(g.Mentioned, reason.Rule) {
				named = "✓ "
			}
			r.say("      %s%s\n", named, reason.Text) // words only: rule ids stay in the trace and JSON
		}
	}
	return res, nil
}

func suggestion(got string, choices []string) string {
	if n := knowledge.Nearest(got, choices); n != "" {
		return fmt.Sprintf(" (did you mean %s?)", n)
	}
	return ""
}

func (r *drillRun) flags() (drill.FlagsResult, error) {
	qs := r.c.FlagQuiz(r.kb, r.seed, r.misses)
	r.say("FLAGS: the top vLLM flags as they are today. %d questions.\n\n", len(qs))
	answers := make([]drill.FlagAnswer, len(qs))
	for i, q := range qs {
		answers[i].Choice = -1
		if q.Mode == drill.ModeDefault {
			def, err := r.ask(fmt.Sprintf("%d/%d  %s\n      its default: ", i+1, len(qs), q.Flag))
			if err != nil {
				return drill.FlagsResult{}, err
			}
			answers[i].Default = def
			for k, ch := range q.Choices {
				r.say("      %d) %s\n", k+1, ch)
			}
			for {
				pick, err := r.ask("      its effect [1-4]: ")
				if err != nil {
					return drill.FlagsResult{}, err
				}
				if n, err := strconv.Atoi(pick); err == nil && n >= 1 && n <= len(q.Choices) {
					answers[i].Choice = n - 1
					break
				}
				r.say("      type a number from 1 to %d\n", len(q.Choices))
			}
		} else {
			name, err := r.ask(fmt.Sprintf("%d/%d  Which flag? %s\n      flag: ", i+1, len(qs), q.Effect))
			if err != nil {
				return drill.FlagsResult{}, err
			}
			answers[i].Name = name
		}
		// Feedback at once, so the next question is asked knowing this one.
		for _, line := range r.c.GradeFlagAt(r.kb, qs, i, answers[i]).Feedback() {
			r.say("      %s\n", line)
		}
		r.say("\n")
	}
	res := r.c.GradeFlags(r.kb, qs, answers)
	r.say("Result: %s\n", res.Score.Text())
	for _, g := range res.Grades {
		mark := "✓"
		if g.Points < g.Max {
			mark = "✗"
		}
		r.say("  %s %s (%s): %s\n", mark, g.Question.Flag, drill.Fraction(g.Points, g.Max), g.Verdict())
	}
	return res, nil
}

func (r *drillRun) explain() (drill.ExplainResult, error) {
	t := r.c.Topic()
	r.say("EXPLAIN (%d seconds): %s\nType your explanation; an empty line ends it.\n\n", t.Seconds, t.Prompt)
	start := r.now()
	var lines []string
	for {
		line, err := r.ask("> ")
		if err != nil {
			if len(lines) == 0 {
				return drill.ExplainResult{}, err
			}
			break
		}
		if line == "" {
			break
		}
		lines = append(lines, line)
	}
	elapsed := r.now().Sub(start)
	res := drill.GradeExplain(t, strings.Join(lines, " "), elapsed)
	r.say("\nResult: %s in %.0f s", res.Score.Text(), elapsed.Seconds())
	if !res.InTime {
		r.say(" (over the %d s limit: no points)", t.Seconds)
	}
	r.say("\n")
	for _, p := range res.Covered {
		r.say("  ✓ %s\n", p.Text)
	}
	for _, p := range res.Missed {
		r.say("  ✗ %s\n", p.Text)
		if n := res.Note(p.ID); n != "" {
			r.say("      %s.\n", n)
		}
	}
	for _, f := range res.Feedback {
		r.say("  %s\n", f)
	}
	r.say("\nReference explanation:\n  %s\n", t.Reference)
	return res, nil
}

func (r *drillRun) mock() (drill.MockResult, error) {
	r.say("MOCK EXIT TEST: taxonomy, scenario, flags, explain. The bar: every product placed, every layer right, %.0f%% of the flag points, %.0f%% of the key points in time.\n\n", 100*r.c.Bar.Flags, 100*r.c.Bar.Explain)
	tax, err := r.taxonomy()
	if err != nil {
		return drill.MockResult{}, err
	}
	r.say("\n")
	sc, err := r.scenarioDrill()
	if err != nil {
		return drill.MockResult{}, err
	}
	r.say("\n")
	fl, err := r.flags()
	if err != nil {
		return drill.MockResult{}, err
	}
	r.say("\n")
	ex, err := r.explain()
	if err != nil {
		return drill.MockResult{}, err
	}
	res := r.c.GradeMock(tax, sc, fl, ex)
	r.say("\nMOCK EXIT TEST: %s\n", res.Verdict())
	for _, p := range res.Parts {
		mark := "✓"
		if !p.Pass {
			mark = "✗"
		}
		what := ""
		if p.Drill == drill.Scenario {
			what = " of the layers right"
		}
		r.say("  %s %-9s %3.0f%%%s (bar %.0f%%)\n", mark, p.Drill, 100*p.Ratio, what, 100*p.Bar)
	}
	if len(res.Weakest) > 0 {
		r.say("Weakest items:\n")
		for _, id := range res.Weakest[:min(8, len(res.Weakest))] {
			r.say("  - %s\n", r.c.ItemName(r.kb, id))
		}
	}
	return res, nil
}

func (a *app) statsText(s store.Summary, name func(string) string) string {
	if len(s.Drills) == 0 {
		return "No drills finished yet. Start with: stackpick drill taxonomy\n"
	}
	var b strings.Builder
	b.WriteString(a.styles().Heading.Render("Progress per drill") + "\n")
	for _, d := range s.Drills {
		line := "  " + drill.Progress(d.Drill, d.Attempts, d.Last, d.Best, d.Passes)
		// One score is already the last and the best: a trend needs two.
		if len(d.Ratios) > 1 {
			line += "  " + drill.Trend(d.Ratios, 10)
		}
		b.WriteString(line + "\n")
	}
	if len(s.MostMissed) > 0 {
		b.WriteString("\n" + a.styles().Heading.Render("Most missed") + "\n")
		for _, m := range s.MostMissed {
			fmt.Fprintf(&b, "  %2d× %s\n", m.Count, name(m.Item))
		}
	}
	return b.String()
}
