package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

var compareFormats = []string{"text", "markdown", "json"}

func (a *app) compareCommand() *cobra.Command {
	var format string
	var width int
	cmd := &cobra.Command{
		Use:   "compare PRODUCT PRODUCT [PRODUCT]",
		Short: "Compare two or three products as a capability grid, every cell sourced",
		Long: `Put two or three products side by side as a grid read from the knowledge base:
Kubernetes needed, bare metal, KV-aware routing, prefill/decode disaggregation,
LoRA adapter routing, autoscaling, governance, the engines it runs, accelerator
vendors, licence, and the latest release with its date. Each cell is footnoted
to the source it was read from; "— (no source)" means none was found, not that
the product cannot do it.

Name products by id or by name, in any case: dynamo, "NVIDIA Dynamo", llm-d,
kserve. Products of different layers may be compared; the grid then says they
are not alternatives to each other.`,
		Example: `  stackpick compare dynamo llm-d kserve
  stackpick compare ray-serve sgl-router --format markdown
  stackpick compare "NVIDIA Dynamo" dynamo-triton --format json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) < 2 || len(args) > 3 {
				return usage(fmt.Errorf("compare takes two or three products, got %d; for example: stackpick compare dynamo llm-d kserve", len(args)))
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			return a.runCompare(args, format, width)
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text, markdown or json")
	cmd.Flags().IntVarP(&width, "width", "w", 0, widthHelp)
	return cmd
}

func (a *app) runCompare(args []string, format string, width int) error {
	if !slices.Contains(compareFormats, format) {
		return badInput(&knowledge.Error{File: "--format", Key: format, Problem: "unknown format", Allowed: strings.Join(compareFormats, ", "), Hint: hintFor(format, compareFormats)})
	}
	if err := checkWidth(width); err != nil {
		return err
	}
	kb, err := a.loadKB()
	if err != nil {
		return err
	}
	ps, err := lookupProducts(kb, args)
	if err != nil {
		return err
	}
	g := report.NewGrid(kb, ps...)
	w := a.out(a.io.Stdout)
	switch format {
	case "json":
		// encoding/json escapes control characters: nothing for the
		// colour writer to strip.
		return report.GridJSON(w.Forward, g)
	case "markdown":
		_, err := io.WriteString(colorless(w), report.GridMarkdown(g))
		return err
	}
	if width == 0 {
		width = a.textWidth()
	}
	_, err = io.WriteString(w, report.GridText(g, a.styles(), width))
	return err
}

// widthHelp is the --width flag's help for compare and diff.
const widthHelp = "text width in columns (default: the terminal's, at most 120; piped, a valid COLUMNS, else 100)"

func checkWidth(width int) error {
	if width < 0 || width > 1000 {
		return badInputf("--width %d: must be a number of columns from 1 to 1000", width)
	}
	return nil
}

// colorless is w with colour always dropped: Markdown is a file format.
func colorless(w *colorprofile.Writer) io.Writer {
	return &colorprofile.Writer{Forward: w.Forward, Profile: colorprofile.NoTTY}
}

// lookupProducts resolves each argument to a product by id or name. An
// unknown one, or one named twice, is the user's to fix (exit 2), with the
// nearest id and the whole list.
func lookupProducts(kb *knowledge.KB, args []string) ([]*knowledge.Product, error) {
	var ps []*knowledge.Product
	for _, arg := range args {
		p := kb.LookupProduct(arg)
		if p == nil {
			return nil, badInput(unknownProduct(kb, arg))
		}
		if slices.Contains(ps, p) {
			return nil, badInputf("%s is named twice; compare two or three different products, for example: stackpick compare dynamo llm-d kserve", p.Name)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func unknownProduct(kb *knowledge.KB, arg string) error {
	ids := kb.ProductIDs()
	candidates := slices.Clone(ids)
	for _, p := range kb.Products {
		candidates = append(candidates, strings.ToLower(p.Name))
	}
	e := &knowledge.Error{File: "compare", Key: arg, Problem: "unknown product", Allowed: strings.Join(ids, ", ")}
	if n := knowledge.Nearest(strings.ToLower(strings.TrimSpace(arg)), candidates); n != "" {
		if p := kb.LookupProduct(n); p != nil {
			e.Hint = fmt.Sprintf("did you mean %q?", p.ID)
		}
	}
	return e
}
