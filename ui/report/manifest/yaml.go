package manifest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Node is one value of a YAML document being written: a map whose fields
// keep their order, a list, or a scalar already in YAML form. Fields carry
// the reason they hold what they hold, written as a comment above them, so
// a reader of the file sees which rule or figure produced each value.
type Node struct {
	fields []Field
	items  []*Node
	scalar string
	block  string
	// why is a list item's reason, written above it.
	why  string
	kind nodeKind
}

type nodeKind uint8

const (
	kindMap nodeKind = iota
	kindList
	kindScalar
	kindBlock
)

// Field is one key of a map, its value and why it holds it.
type Field struct {
	Key string
	Val *Node
	Why string
}

// Map is a YAML map of fields in the order given; a nil field is skipped,
// so optional fields are written inline.
func Map(fields ...*Field) *Node {
	n := &Node{kind: kindMap}
	for _, f := range fields {
		if f != nil {
			n.fields = append(n.fields, *f)
		}
	}
	return n
}

// F is a field with no comment.
func F(key string, v *Node) *Field { return &Field{Key: key, Val: v} }

// W is a field with the reason for its value, written above it.
func W(key string, v *Node, why string) *Field { return &Field{Key: key, Val: v, Why: why} }

// List is a YAML list.
func List(items ...*Node) *Node { return &Node{kind: kindList, items: items} }

// Strs is a list of strings.
func Strs(ss ...string) *Node {
	n := &Node{kind: kindList}
	for _, s := range ss {
		n.items = append(n.items, Str(s))
	}
	return n
}

// Str is a string scalar, quoted whenever YAML could read it as anything
// but that string.
func Str(s string) *Node { return &Node{kind: kindScalar, scalar: quote(s)} }

// Int is an integer scalar.
func Int(i int) *Node { return &Node{kind: kindScalar, scalar: strconv.Itoa(i)} }

// Bool is a boolean scalar.
func Bool(b bool) *Node { return &Node{kind: kindScalar, scalar: strconv.FormatBool(b)} }

// Block is a string written as a literal block (a document inside a
// document, as RayService's serveConfigV2 holds one).
func Block(s string) *Node { return &Node{kind: kindBlock, block: s} }

// Because sets the reason a list item holds what it holds, written above
// it.
func (n *Node) Because(why string) *Node { n.why = why; return n }

// Add appends a field to a map node.
func (n *Node) Add(fs ...*Field) *Node {
	for _, f := range fs {
		if f != nil {
			n.fields = append(n.fields, *f)
		}
	}
	return n
}

// plain matches the strings written without quotes: nothing YAML would
// read as a number, a boolean, null, an alias or a flow collection.
var plain = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_/][A-Za-z0-9_./:@-]*$`) })

func quote(s string) string {
	if plain().MatchString(s) && !strings.Contains(s, ": ") && !strings.HasSuffix(s, ":") && !reserved(s) {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// reserved reports whether YAML 1.1 or 1.2 reads s as something other
// than a string.
func reserved(s string) bool {
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~":
		return true
	}
	return false
}

// YAML writes docs as one YAML stream, "---" between documents; header
// lines (comments, without "# ") come first.
func YAML(header []string, docs ...*Node) []byte {
	var b strings.Builder
	writeComments(&b, header, 0)
	for i, d := range docs {
		if i > 0 || len(header) > 0 {
			b.WriteString("---\n")
		}
		d.write(&b, 0)
	}
	return []byte(b.String())
}

// Document is one node written as a document with no header: the text a
// block scalar holds.
func Document(n *Node) string {
	var b strings.Builder
	n.write(&b, 0)
	return b.String()
}

func writeComments(b *strings.Builder, lines []string, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, l := range lines {
		for _, w := range wrapComment(l, 100-indent-2) {
			if w == "" {
				b.WriteString(pad + "#\n")
				continue
			}
			b.WriteString(pad + "# " + w + "\n")
		}
	}
}

// verbatim starts a comment line that is written as it is, never
// wrapped: a line of a shell command laid out to paste (ShellWrap).
const verbatim = "\x00"

// wrapComment breaks a comment between words to at most width columns; a
// word longer than the width stays whole. Leading spaces are kept on every
// piece, so an indented list in a header stays indented.
func wrapComment(s string, width int) []string {
	if v, ok := strings.CutPrefix(s, verbatim); ok {
		return []string{v}
	}
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	words := strings.Fields(s)
	if len(words) == 0 {
		return []string{""}
	}
	var out []string
	line := lead + words[0]
	for _, w := range words[1:] {
		if len(line)+1+len(w) > width {
			out = append(out, line)
			line = lead + "  " + w
			continue
		}
		line += " " + w
	}
	return append(out, line)
}

// write writes n's content at indent, for a node that starts its own
// lines (a map's fields, a list's items).
func (n *Node) write(b *strings.Builder, indent int) {
	pad := strings.Repeat(" ", indent)
	switch n.kind {
	case kindMap:
		for _, f := range n.fields {
			if f.Why != "" {
				writeComments(b, []string{f.Why}, indent)
			}
			b.WriteString(pad + keyText(f.Key) + ":")
			f.Val.after(b, indent)
		}
	case kindList:
		for _, it := range n.items {
			if it.why != "" {
				writeComments(b, []string{it.why}, indent)
			}
			b.WriteString(pad + "-")
			it.afterDash(b, indent)
		}
	default:
		b.WriteString(pad + n.inline() + "\n")
	}
}

// after writes a value that follows "key:".
func (n *Node) after(b *strings.Builder, indent int) {
	switch {
	case n.kind == kindMap && len(n.fields) == 0:
		b.WriteString(" {}\n")
	case n.kind == kindList && len(n.items) == 0:
		b.WriteString(" []\n")
	case n.kind == kindMap || n.kind == kindList:
		b.WriteString("\n")
		n.write(b, indent+2)
	case n.kind == kindBlock:
		n.writeBlock(b, indent+2)
	default:
		b.WriteString(" " + n.inline() + "\n")
	}
}

// afterDash writes a list item that follows "-".
func (n *Node) afterDash(b *strings.Builder, indent int) {
	switch {
	case n.kind == kindMap && len(n.fields) > 0:
		// The first field goes on the dash's line, the rest under it;
		// a first field with a reason starts below the dash instead.
		first := n.fields[0]
		if first.Why != "" {
			b.WriteString("\n")
			n.write(b, indent+2)
			return
		}
		b.WriteString(" " + keyText(first.Key) + ":")
		first.Val.after(b, indent+2)
		rest := &Node{kind: kindMap, fields: n.fields[1:]}
		rest.write(b, indent+2)
	case n.kind == kindList && len(n.items) > 0:
		b.WriteString("\n")
		n.write(b, indent+2)
	default:
		n.after(b, indent)
	}
}

func (n *Node) inline() string {
	switch n.kind {
	case kindMap:
		return "{}"
	case kindList:
		return "[]"
	case kindBlock:
		return quote(n.block)
	}
	return n.scalar
}

func (n *Node) writeBlock(b *strings.Builder, indent int) {
	text := n.block
	chomp := "|-"
	if strings.HasSuffix(text, "\n") {
		chomp = "|"
		text = strings.TrimSuffix(text, "\n")
	}
	b.WriteString(" " + chomp + "\n")
	pad := strings.Repeat(" ", indent)
	for _, l := range strings.Split(text, "\n") {
		if l == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(pad + l + "\n")
	}
}

func keyText(k string) string { return quote(k) }
