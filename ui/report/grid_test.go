package report_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

func gridOf(t *testing.T, kb *knowledge.KB, ids ...string) report.Grid {
	t.Helper()
	var ps []*knowledge.Product
	for _, id := range ids {
		p := kb.Product(id)
		if p == nil {
			t.Fatalf("no product %q", id)
		}
		ps = append(ps, p)
	}
	return report.NewGrid(kb, ps...)
}

func cellOf(t *testing.T, g report.Grid, row, product string) report.GridCell {
	t.Helper()
	for _, r := range g.Rows {
		if r.ID != row {
			continue
		}
		for i, p := range g.Products {
			if p.ID == product {
				return r.Cells[i]
			}
		}
	}
	t.Fatalf("no cell %s / %s", row, product)
	return report.GridCell{}
}

func noteOf(t *testing.T, g report.Grid, n int) report.GridNote {
	t.Helper()
	if n < 1 || n > len(g.Notes) || g.Notes[n-1].N != n {
		t.Fatalf("footnote [%d] is not in the grid's %d notes", n, len(g.Notes))
	}
	return g.Notes[n-1]
}

// The grid is knowledge-base data, not prose: change a capability, a
// licence or a release in the knowledge base and the cell changes, with its
// footnote pointing at the new source.
func TestGridCellsComeFromTheKnowledgeBase(t *testing.T) {
	base := gridOf(t, knowledge.MustDefault(), "dynamo", "llm-d", "kserve")
	if c := cellOf(t, base, report.RowLoRA, "llm-d"); c.State != report.CellNoSource || c.Text != "— (no source)" {
		t.Fatalf("built-in llm-d LoRA routing cell = %+v, want no source", c)
	}
	overlay := "[[capability]]\nproduct = \"llm-d\"\nwhat = \"features\"\nvalues = [\"replica-routing\", \"kv-routing\", \"lora-routing\"]\n" +
		"[[capability.source]]\nkind = \"repo\"\nrepo = \"test/llm-d\"\ncommit = \"0123456789abcdef0123456789abcdef01234567\"\npath = \"docs/lora.md\"\nquote = \"routes LoRA adapters\"\nchecked_on = \"2026-12-01\"\n"
	kb, err := knowledge.Build(knowledge.Embedded(), []knowledge.SourceFile{{Name: "kb/caps.toml", Data: []byte(overlay)}})
	if err != nil {
		t.Fatal(err)
	}
	kb.Product("kserve").Licence.SPDX = "MIT"
	kb.Product("kserve").Release.Tag, kb.Product("kserve").Release.Date = "v9.9.9", "2026-11-30"
	g := gridOf(t, kb, "dynamo", "llm-d", "kserve")

	lora := cellOf(t, g, report.RowLoRA, "llm-d")
	if lora.Text != "yes" || lora.State != report.CellValue || len(lora.Notes) != 1 {
		t.Fatalf("llm-d LoRA routing after the overlay = %+v, want yes with one footnote", lora)
	}
	if n := noteOf(t, g, lora.Notes[0]); n.Source != "test/llm-d @0123456789abcdef0123456789abcdef01234567 docs/lora.md" || n.Quote != "routes LoRA adapters" || n.Product != "llm-d" {
		t.Errorf("its footnote = %+v, want the overlay's source and quote", n)
	}
	if c := cellOf(t, g, report.RowPD, "llm-d"); c.State != report.CellNoSource {
		t.Errorf("llm-d P/D after an overlay without it = %+v, want no source", c)
	}
	if c := cellOf(t, g, report.RowLicence, "kserve"); c.Text != "MIT" {
		t.Errorf("KServe licence cell = %q, want MIT", c.Text)
	}
	if c := cellOf(t, g, report.RowRelease, "kserve"); c.Text != "v9.9.9, 2026-11-30" {
		t.Errorf("KServe release cell = %q, want v9.9.9, 2026-11-30", c.Text)
	}
}

// Each row reads the fact it names, for every kind of cell.
func TestGridRowsSayWhatTheKnowledgeBaseRecords(t *testing.T) {
	kb := knowledge.MustDefault()
	g := gridOf(t, kb, "dynamo", "llm-d", "kserve")
	want := map[[2]string]string{
		{report.RowKubernetes, "dynamo"}: "no (also Slurm, bare metal)",
		{report.RowKubernetes, "kserve"}: "yes (the sources name only Kubernetes)",
		{report.RowBareMetal, "dynamo"}:  "yes",
		{report.RowBareMetal, "llm-d"}:   "— (no source)",
		{report.RowKVRouting, "kserve"}:  "yes",
		{report.RowAutoscale, "llm-d"}:   "yes",
		{report.RowGovernance, "kserve"}: "CNCF incubating project",
		{report.RowEngines, "dynamo"}:    "vLLM, SGLang, TensorRT-LLM",
		{report.RowEngines, "kserve"}:    "vLLM",
		{report.RowVendors, "llm-d"}:     "NVIDIA, AMD, Intel, Google TPU, CPU only",
		{report.RowVendors, "kserve"}:    "— (no source)",
		{report.RowLicence, "llm-d"}:     "Apache-2.0",
		{report.RowRelease, "kserve"}:    "v0.21.0, 2026-09",
		{report.RowRelease, "dynamo"}:    "v1.6.2, date not found",
	}
	for k, text := range want {
		if c := cellOf(t, g, k[0], k[1]); c.Text != text {
			t.Errorf("%s / %s = %q, want %q", k[0], k[1], c.Text, text)
		}
	}
	if len(g.Rows) != 11 {
		t.Errorf("%d rows, want the 11 the issue lists", len(g.Rows))
	}
	// A value has a footnote with a source; so does a release whose
	// date no source gives, with the reason.
	for _, r := range g.Rows {
		for _, c := range r.Cells {
			if c.State == report.CellValue && len(c.Notes) == 0 {
				t.Errorf("%s: %q has no footnote", r.ID, c.Text)
			}
			for _, n := range c.Notes {
				if note := noteOf(t, g, n); note.Source == "" && note.NotFound == "" {
					t.Errorf("%s: footnote [%d] has neither a source nor a reason", r.ID, n)
				}
			}
		}
	}
	rel := noteOf(t, g, cellOf(t, g, report.RowRelease, "dynamo").Notes[0])
	if !strings.Contains(rel.NotFound, "The date of v1.6.2") || rel.AsOf != "2026-12-01" {
		t.Errorf("Dynamo's release footnote = %+v, want why the date is missing, checked 2026-12-01", rel)
	}
	// Governance no source gives is said so, with the reason.
	ray := gridOf(t, kb, "ray-serve", "kserve")
	gov := cellOf(t, ray, report.RowGovernance, "ray-serve")
	if gov.State != report.CellNoSource || noteOf(t, ray, gov.Notes[0]).NotFound == "" {
		t.Errorf("Ray Serve governance = %+v, want no source with the reason in its footnote", gov)
	}
	// Engines are not asked what an orchestrator is asked.
	eng := gridOf(t, kb, "vllm", "sglang")
	if c := cellOf(t, eng, report.RowKVRouting, "vllm"); c.State != report.CellNotApply {
		t.Errorf("vLLM KV-aware routing = %+v, want n/a", c)
	}
	if c := cellOf(t, eng, report.RowVendors, "sglang"); !strings.Contains(c.Text, "Apple silicon") {
		t.Errorf("SGLang vendors = %q", c.Text)
	}
}

func TestAGridOfDifferentLayersSaysTheyAreNotAlternatives(t *testing.T) {
	kb := knowledge.MustDefault()
	if g := gridOf(t, kb, "dynamo", "llm-d"); g.Note != "" {
		t.Errorf("two orchestrators got a note: %q", g.Note)
	}
	g := gridOf(t, kb, "dynamo", "dynamo-triton")
	if !strings.Contains(g.Note, "different layers") || !strings.Contains(g.Note, "Dynamo-Triton: model server") {
		t.Errorf("note = %q", g.Note)
	}
	if text := report.GridText(g, report.Styles{}, 80); !strings.Contains(ansi.Strip(text), "not alternatives to each other") {
		t.Error("the text does not say so")
	}
}

// gridBody is the rendered grid without its legend and sources, as words.
func gridBody(t *testing.T, text string) string {
	t.Helper()
	blocks := strings.Split(ansi.Strip(text), "\n\n")
	for i, b := range blocks {
		if strings.HasPrefix(b, "— (no source):") {
			return strings.Join(blocks[:i], "\n\n")
		}
	}
	t.Fatal("no legend in the grid text")
	return ""
}

// Text never clips or loses a word: at every width each word of every
// cell, label and product name is in the grid, no line is wider than the
// width, and from 80 columns three orchestrators sit in columns.
func TestNoGridWordIsLostAtAnyWidth(t *testing.T) {
	kb := knowledge.MustDefault()
	sets := [][]string{{"dynamo", "llm-d", "kserve"}, {"ray-serve", "sgl-router", "kserve"}, {"vllm", "sglang", "tensorrt-llm"}, {"dynamo", "dynamo-triton"}, {"llama-cpp", "vllm"}}
	for _, ids := range sets {
		g := gridOf(t, kb, ids...)
		for _, width := range []int{24, 32, 40, 60, 80, 100, 120, 160, 200} {
			text := report.GridText(g, report.Styles{}, width)
			for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				if w := ansi.StringWidth(line); w > width {
					t.Errorf("%v at %d: line %d is %d wide: %q", ids, width, i+1, w, line)
				}
			}
			have := map[string]int{}
			for _, w := range strings.Fields(strings.ReplaceAll(gridBody(t, text), "│", " ")) {
				have[strings.TrimSuffix(w, ":")]++ // a record's "Label: value"
			}
			var want []string
			for _, p := range g.Products {
				want = append(want, strings.Fields(p.Name)...)
			}
			for _, r := range g.Rows {
				want = append(want, strings.Fields(r.Label)...)
				for _, c := range r.Cells {
					want = append(want, strings.Fields(c.Text)...)
				}
			}
			for _, w := range want {
				if have[w] == 0 {
					t.Errorf("%v at %d columns: %q is missing from the grid", ids, width, w)
				}
			}
			if columns := report.GridColumns(g, width); width >= 80 && !columns {
				t.Errorf("%v at %d columns: laid out as records, want columns", ids, width)
			}
		}
		if report.GridColumns(g, 40) && len(g.Products) == 3 {
			t.Errorf("%v: three columns at 40 columns, want one record per product", ids)
		}
	}
}

// Goldens of the grid at 80, 120 and 200 columns, and as Markdown and
// JSON. Regenerate with: go test ./ui/report -run Golden -update
func TestGoldenGrids(t *testing.T) {
	kb := knowledge.MustDefault()
	g := gridOf(t, kb, "dynamo", "llm-d", "kserve")
	var js strings.Builder
	if err := report.GridJSON(&js, g); err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{
		"dynamo-llm-d-kserve-80.txt":  report.GridText(g, report.Styles{}, 80),
		"dynamo-llm-d-kserve-120.txt": report.GridText(g, report.Styles{}, 120),
		"dynamo-llm-d-kserve-200.txt": report.GridText(g, report.Styles{}, 200),
		"dynamo-llm-d-kserve.md":      report.GridMarkdown(g),
		"dynamo-llm-d-kserve.json":    js.String(),
		"dynamo-dynamo-triton.md":     report.GridMarkdown(gridOf(t, kb, "dynamo", "dynamo-triton")),
	}
	for name, got := range outs {
		t.Run(name, func(t *testing.T) {
			golden(t, filepath.Join("testdata", "grids", name), got)
		})
	}
}

func TestGridJSONHoldsEveryCellAndItsSources(t *testing.T) {
	g := gridOf(t, knowledge.MustDefault(), "dynamo", "llm-d", "kserve")
	var b strings.Builder
	if err := report.GridJSON(&b, g); err != nil {
		t.Fatal(err)
	}
	var back report.Grid
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil {
		t.Fatal(err)
	}
	if back.Schema != report.GridSchema || len(back.Rows) != len(g.Rows) || len(back.Notes) != len(g.Notes) {
		t.Fatalf("round trip lost something: %d rows, %d notes", len(back.Rows), len(back.Notes))
	}
	for _, n := range back.Notes {
		if n.Source != "" && n.Quote == "" && n.NotFound == "" {
			t.Errorf("note [%d] %s %s has a source but no quote", n.N, n.Product, n.About)
		}
	}
	if !slices.ContainsFunc(back.Notes, func(n report.GridNote) bool { return strings.Contains(n.Quote, "incubating project") }) {
		t.Error("KServe's governance quote is not in the JSON")
	}
}

// Building and laying out the grid the compare screen shows at 120 columns.
func BenchmarkGrid120(b *testing.B) {
	kb := knowledge.MustDefault()
	ps := []*knowledge.Product{kb.Product("dynamo"), kb.Product("llm-d"), kb.Product("kserve")}
	st := report.DefaultStyles()
	for b.Loop() {
		_ = report.GridLines(report.NewGrid(kb, ps...), st, 120)
	}
}

// A release's source is worded as a reader reads it: the tag, a short
// commit and the date, never the command that read the date.
func TestGridSourcesShowNoInternalCommands(t *testing.T) {
	kb := knowledge.MustDefault()
	for _, ids := range [][]string{{"dynamo", "llm-d", "kserve"}, {"dynamo", "dynamo-triton"}} {
		g := gridOf(t, kb, ids...)
		for _, out := range []string{ansi.Strip(report.GridText(g, report.Styles{}, 80)), report.GridMarkdown(g)} {
			if strings.Contains(out, "git log") || strings.Contains(out, "--format=") {
				t.Errorf("%v: a footnote shows the command that read a date:\n%s", ids, out)
			}
		}
	}
	g := gridOf(t, kb, "kserve", "llm-d")
	if txt, want := report.GridMarkdown(g), kb.Product("kserve").Release.Sources[0].Cite(true); !strings.Contains(txt, want) {
		t.Errorf("KServe's release footnote should cite its source as %q:\n%s", want, txt)
	}
}
