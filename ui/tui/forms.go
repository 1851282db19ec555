package tui

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

// Every use of huh lives in this file: the questionnaire's fields, the
// one-answer editor, the save and export prompts and the yes/no
// confirmations, in the full-screen app and in accessible mode. Screens get
// a *huh.Form and a binding to read answers back; nothing else of huh leaks
// out.

// binding ties one question to the variable its huh field edits, and turns
// that variable back into a typed answer.
type binding struct {
	q    *knowledge.Question
	text string // enum value, or the digits of an int
	flag bool
	list []string
	// offer is the enum values the menu shows (nil: all the question
	// allows): kubernetes offers only what agrees with the substrate.
	offer []string
}

// reconcile settles a substrate × kubernetes contradiction the change from
// prev to a made (the answer just given wins) and returns the answers to
// keep and what to tell the user ("" when nothing moved): the app never
// decides on a contradictory pair.
func reconcile(a, prev knowledge.Answers) (knowledge.Answers, string) {
	a, moved := a.Reconcile(prev)
	if moved == nil {
		return a, ""
	}
	return a, fmt.Sprintf("%s moved from %s to %s to agree with the answer just given (answers must not contradict each other)", moved.Q.Key, moved.FromText(), moved.ToText())
}

// bindingFor binds q to its answer in a, offering only values that agree
// with the other answers.
func bindingFor(q *knowledge.Question, a knowledge.Answers) *binding {
	b := newBinding(q, a.Get(q.Key))
	if q.Key == knowledge.KeyKubernetes {
		b.offer = a.ConsistentValues(q.Key)
	}
	return b
}

func newBinding(q *knowledge.Question, v knowledge.Value) *binding {
	b := &binding{q: q}
	switch q.Type {
	case knowledge.TypeInt:
		b.text = strconv.Itoa(v.Int)
	case knowledge.TypeBool:
		b.flag = v.Bool
	case knowledge.TypeList:
		b.list = slices.Clone(v.List)
	default:
		b.text = v.Str
	}
	return b
}

// value is the answer as the field holds it now, or an error a person can
// act on (only numbers can be typed wrong).
func (b *binding) value() (knowledge.Value, error) {
	switch b.q.Type {
	case knowledge.TypeInt:
		return parseInt(b.q, b.text)
	case knowledge.TypeBool:
		return knowledge.Value{Bool: b.flag}, nil
	case knowledge.TypeList:
		// The question's order, so equal sets are equal answers.
		var list []string
		for _, v := range b.q.Values {
			if slices.Contains(b.list, v) {
				list = append(list, v)
			}
		}
		return knowledge.Value{List: list}, nil
	default:
		return knowledge.Value{Str: b.text}, nil
	}
}

func parseInt(q *knowledge.Question, s string) (knowledge.Value, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || q.Check(knowledge.Value{Int: n}) != nil {
		return knowledge.Value{}, fmt.Errorf("%s: enter %s", q.Key, q.AllowedText())
	}
	return knowledge.Value{Int: n}, nil
}

// optionLabel is what a menu shows for one allowed value.
func optionLabel(kb *knowledge.KB, q *knowledge.Question, v string) string {
	if l, ok := q.Labels[v]; ok {
		return l
	}
	if q.Catalog == knowledge.CatalogGPU {
		if g := kb.GPU(v); g != nil {
			return v + ": " + g.Name
		}
	}
	return v
}

// field builds the huh field for the binding's question, for a form w
// cells wide (in accessible mode, for a terminal w wide). The title and the
// why come wrapped at spaces to the form's inner width: huh's own wrap also
// breaks after hyphens and semicolons ("first-" / "class", "needs;" alone
// on a line).
func (b *binding) field(kb *knowledge.KB, accessible bool, w, h int) huh.Field {
	q := b.q
	inner := w - fieldFrame()
	title, desc := fitText(q.Prompt, inner), fitText("Why it matters: "+q.Why, inner)
	optW := 0 // huh wraps a select's options itself on a form
	if accessible {
		// The question, why and current answer are printed before the
		// field (askQuestions); huh gets a one-line prompt, and options
		// wrapped to w under their number.
		title, desc = q.Key+":", ""
		if q.Type != knowledge.TypeInt {
			title = "Choices for " + q.Key + ":"
		}
		optW = w - 5 // "17. " and a tick
	}
	switch q.Type {
	case knowledge.TypeInt:
		f := huh.NewInput().Key(q.Key).Title(title).Description(desc).
			Placeholder(q.AllowedText()).CharLimit(9).
			Validate(func(s string) error {
				if accessible && strings.TrimSpace(s) == "" {
					return nil // keeps the value shown as "Now"
				}
				_, err := parseInt(q, s)
				return err
			}).
			Value(&b.text)
		return f
	case knowledge.TypeBool:
		// A two-line menu rather than buttons: the cursor stays visible
		// without colour (NO_COLOR, projectors, screen captures).
		return huh.NewSelect[bool]().Key(q.Key).Title(title).Description(desc).
			Options(huh.NewOption("no", false), huh.NewOption("yes", true)).
			Value(&b.flag)
	case knowledge.TypeList:
		opts := make([]huh.Option[string], len(q.Values))
		optsH := 0
		for i, v := range q.Values {
			label := optionLabel(kb, q, v)
			if accessible {
				label = hangText(label, optW, 5)
			} else {
				// huh lets a long item run past the edge, where the
				// field's frame cuts it mid-word: wrap it past "> [✓] ".
				label = fitText(label, inner-6)
			}
			optsH += lipgloss.Height(label)
			opts[i] = huh.NewOption(label, v)
		}
		if !accessible {
			room := math.MaxInt // no height to fit
			if h > 0 {
				room = h - lipgloss.Height(title) - optsH
			}
			desc = listDescription(desc, fitText("Press space to tick or untick the item under the cursor; enter goes on.", inner), room)
		}
		f := huh.NewMultiSelect[string]().Key(q.Key).Title(title).Description(desc).
			Options(opts...).Filterable(false).Value(&b.list)
		if w > 0 && !accessible {
			// Without a height, huh v2.0.3 takes the title and description
			// lines off the options' height and hides options; give it the
			// full height (title, why and items are wrapped already).
			descH := 0
			if desc != "" {
				descH = lipgloss.Height(desc)
			}
			f.Height(lipgloss.Height(title) + descH + optsH)
		}
		return f
	default:
		values := q.Values
		if b.offer != nil {
			values = b.offer
		}
		opts := make([]huh.Option[string], len(values))
		for i, v := range values {
			opts[i] = huh.NewOption(hangText(optionLabel(kb, q, v), optW, 4), v)
		}
		return huh.NewSelect[string]().Key(q.Key).Title(title).Description(desc).
			Options(opts...).Value(&b.text)
	}
}

// listDescription is a list question's why and hint in room lines: huh
// draws a multi-select whole from its top, so on a short terminal the why
// gives way, then the hint (the footer says it too), before any item is
// pushed below the edge where nobody can see what space ticks.
func listDescription(why, hint string, room int) string {
	whyH, hintH := lipgloss.Height(why), lipgloss.Height(hint)
	switch {
	case room >= whyH+hintH:
		return why + "\n" + hint
	case room > hintH:
		lines := strings.Split(why, "\n")[:room-hintH]
		lines[len(lines)-1] += "…"
		return strings.Join(lines, "\n") + "\n" + hint
	case room >= hintH:
		return hint
	default:
		return ""
	}
}

// fieldFrame is the cells a field's frame (the focus bar and its padding)
// takes off the form's width.
// It is measured on first use, not at start-up: building a theme costs
// every command 0.3 ms.
var fieldFrame = sync.OnceValue(func() int { return paletteTheme(true).Focused.Base.GetHorizontalFrameSize() })

// fitText wraps s at spaces to width cells (report's one wrapper), one
// line per row; a width of 0 or less leaves s as it is.
func fitText(s string, width int) string {
	if width <= 0 {
		return s
	}
	return strings.Join(report.Wrap(s, width, 0, 0), "\n")
}

// hangText wraps an accessible option's label to width, the lines after
// the first indented by hang (under the label, past its number); a width
// of 0 or less, or a label that fits, leaves it whole.
func hangText(s string, width, hang int) string {
	if width <= 0 {
		return s
	}
	lines := report.Wrap(s, width, 0, 0)
	return strings.Join(lines, "\n"+strings.Repeat(" ", hang))
}

// formKeys is huh's keymap with the keys the app owns taken out: ctrl+c
// quits the whole app, and "/" filtering is off so esc and q mean "back".
func formKeys() *huh.KeyMap {
	k := huh.NewDefaultKeyMap()
	k.Quit.SetEnabled(false)
	k.Select.Filter.SetEnabled(false)
	k.MultiSelect.Filter.SetEnabled(false)
	return k
}

// formTheme is the form theme built from the app's palette, with one
// blank line between fields only when there is room and buttons that stay
// apart without colour. huh asks its theme for styles on every option it
// draws, so the styles are built once per background and kept.
func formTheme(noColor, compact bool) huh.Theme {
	built := map[bool]*huh.Styles{}
	return huh.ThemeFunc(func(isDark bool) *huh.Styles {
		if t, ok := built[isDark]; ok {
			return t
		}
		t := paletteTheme(isDark)
		if compact {
			t.FieldSeparator = lipgloss.NewStyle().SetString("\n")
		}
		if noColor {
			// Without colour the fill is the terminal's own colours swapped.
			for _, fs := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
				fs.FocusedButton = fs.FocusedButton.UnsetForeground().UnsetBackground().Reverse(true)
				fs.Next = fs.FocusedButton
			}
		}
		built[isDark] = t
		return t
	})
}

// paletteTheme is huh's form theme in the app's one palette, every style
// set here: no colour of huh's own themes is used (v2.0.3's Charm theme
// has its light and dark option colours swapped, near-black options on a
// dark terminal, near-white on a light one). Option text is the terminal's
// own foreground, which its theme makes readable on its background; every
// other colour is one of report's, chosen for 4.5:1 on either background.
func paletteTheme(isDark bool) *huh.Styles {
	st := report.NewStyles(isDark)
	key, muted := st.Key.GetForeground(), st.Muted.GetForeground()
	t := huh.ThemeBase(isDark)
	t.Form.Base = lipgloss.NewStyle()
	t.Group.Base = lipgloss.NewStyle()

	f := &t.Focused
	// The bar beside the focused field is in the accent, the one field
	// that takes keys marked as a title is.
	f.Base = f.Base.BorderForeground(st.Layer.GetForeground())
	f.Card = f.Base
	f.Title = st.Layer
	f.NoteTitle = st.Layer.MarginBottom(1)
	f.Description = st.Muted
	f.ErrorIndicator = st.Error.SetString(" *")
	f.ErrorMessage = st.Error.SetString(" *")
	f.SelectSelector = f.SelectSelector.Foreground(key).Bold(true)
	f.NextIndicator = f.NextIndicator.Foreground(key)
	f.PrevIndicator = f.PrevIndicator.Foreground(key)
	f.MultiSelectSelector = f.MultiSelectSelector.Foreground(key).Bold(true)
	f.Directory = st.Key
	f.File = st.Text
	f.Option = st.Text
	// In a select the option under the cursor; in a multi-select a ticked
	// one. Both are bold as well as green, so they read without colour.
	f.SelectedOption = st.Pick
	f.SelectedPrefix = st.Good.Bold(true).SetString("[✓] ")
	f.UnselectedOption = st.Text
	f.UnselectedPrefix = st.Text.SetString("[ ] ")
	button := lipgloss.NewStyle().Padding(0, 2).MarginRight(1)
	f.FocusedButton = button.Inherit(st.Button)
	f.BlurredButton = button.Foreground(muted)
	f.Next = f.FocusedButton
	f.TextInput = huh.TextInputStyles{
		Cursor:      st.Good,
		CursorText:  st.Text,
		Placeholder: st.Muted,
		Prompt:      st.Key,
		Text:        st.Text,
	}

	t.Blurred = t.Focused
	t.Blurred.Base = t.Focused.Base.BorderStyle(lipgloss.HiddenBorder())
	t.Blurred.Card = t.Blurred.Base
	t.Blurred.MultiSelectSelector = lipgloss.NewStyle().SetString("  ")
	t.Blurred.NextIndicator = lipgloss.NewStyle()
	t.Blurred.PrevIndicator = lipgloss.NewStyle()

	t.Group.Title = t.Focused.Title
	t.Group.Description = t.Focused.Description
	t.Help = help.Styles{
		Ellipsis:       st.Muted,
		ShortKey:       st.Key,
		ShortDesc:      st.Muted,
		ShortSeparator: st.Muted,
		FullKey:        st.Key,
		FullDesc:       st.Muted,
		FullSeparator:  st.Muted,
	}
	return t
}

// form is a huh form as the screens see it: a v2-style model with the
// compat dance (huh's Update returns its v1-shaped Model) done once, here.
type form struct {
	f *huh.Form
}

// newForm wraps fields in a one-page form sized to w×h. The app draws its
// own help and errors, so huh's are off.
func newForm(c *shared, w, h int, fields ...huh.Field) *form {
	compact := h < 20
	g := huh.NewGroup(fields...).WithShowHelp(false).WithShowErrors(false)
	f := huh.NewForm(g).
		WithKeyMap(formKeys()).
		WithTheme(formTheme(c.noColor, compact)).
		WithShowHelp(false).
		WithShowErrors(false).
		WithWidth(max(w, 10)).
		WithHeight(max(h, 3))
	// huh starts every form light; tell it what the app already knows.
	bg := color.Color(color.White)
	if c.Styles.Dark {
		bg = color.Black
	}
	f.Update(tea.BackgroundColorMsg{Color: bg})
	th := formTheme(c.noColor, compact).Theme(c.Styles.Dark)
	for _, fl := range fields {
		if in, ok := fl.(*huh.Input); ok {
			themeBlurredInput(in, th.Blurred.TextInput)
		}
	}
	return &form{f: f}
}

// themeBlurredInput gives a text input the theme's blurred styles. huh
// v2.0.3 copies only its theme's focused text-input styles into the
// bubbles text input it wraps, so a blurred input kept bubbles' defaults:
// its value in ANSI 37, light grey, 1.3:1 on a white terminal. huh has no
// way to reach that text input, so this sets its blurred styles once
// through reflection (huh's View never touches them again); if huh's
// insides change, it leaves the input as it is and the rendered-contrast
// test fails.
func themeBlurredInput(in *huh.Input, ts huh.TextInputStyles) {
	v := reflect.ValueOf(in).Elem().FieldByName("textinput")
	if !v.IsValid() || v.Type() != reflect.TypeFor[textinput.Model]() || !v.CanAddr() {
		return
	}
	ti := (*textinput.Model)(unsafe.Pointer(v.UnsafeAddr()))
	st := ti.Styles()
	st.Blurred.Text = ts.Text
	st.Blurred.Placeholder = ts.Placeholder
	st.Blurred.Prompt = ts.Prompt
	st.Blurred.Suggestion = ts.Placeholder
	ti.SetStyles(st)
}

// init focuses the first field. Its command would only start the cursor
// blinking and ask for the window size the root already has; the cursor
// stays steady instead.
func (f *form) init() { f.f.Init() }

func (f *form) update(msg tea.Msg) tea.Cmd {
	m, cmd := f.f.Update(msg)
	if ff, ok := m.(*huh.Form); ok {
		f.f = ff
	}
	return cmd
}

func (f *form) view() string { return f.f.View() }

// problem is what the form's validation refuses in what was typed, ""
// when nothing: huh's own error display is off, so the screen shows it.
func (f *form) problem() string {
	for _, err := range f.f.Errors() {
		if err != nil {
			return err.Error()
		}
	}
	return ""
}

func (f *form) done() bool { return f.f.State == huh.StateCompleted }

// focusedKey is the key of the field with focus.
func (f *form) focusedKey() string {
	if fl := f.f.GetFocusedField(); fl != nil {
		return fl.GetKey()
	}
	return ""
}

// typing reports whether the focused field takes typed text, so the app
// must not treat letters as commands.
func (f *form) typing() bool {
	_, ok := f.f.GetFocusedField().(*huh.Input)
	return ok
}

// ticking reports whether the focused field is a list whose items space
// ticks, so the footer can say so.
func (f *form) ticking() bool {
	_, ok := f.f.GetFocusedField().(*huh.MultiSelect[string])
	return ok
}

// advance moves focus n fields down a freshly started form, to restore the
// position after a resize or when coming back to a page.
func (f *form) advance(n int) {
	for range n {
		f.f.NextField()
	}
}

// questionFields builds the fields of several bindings for a form w wide.
func questionFields(kb *knowledge.KB, bs []*binding, w, h int) []huh.Field {
	out := make([]huh.Field, len(bs))
	for i, b := range bs {
		out[i] = b.field(kb, false, w, h)
	}
	return out
}

// pathField is the save prompt; replay is the command that reads the file
// back, with FILE for the file.
//
// The command is wrapped here, to the field's inner width, at its spaces
// and after a / only: huh's own wrap also breaks after a hyphen, which cut
// --kb into "-" and "-kb" at 40 columns.
func pathField(path *string, replays []string, w, h int) huh.Field {
	intro := "A TOML file that this command reads back to this decision:"
	desc := intro + "\n" + replays[0]
	if inner := w - fieldFrame(); inner > 0 {
		// The first command that leaves room for the title and the input
		// (a long overlay path is named after saving, in full).
		lines := report.Wrap(intro, inner, 0, 0)
		var cmd []string
		for _, r := range replays {
			if cmd = wrapCommand(r, inner); len(lines)+len(cmd)+2 <= h {
				break
			}
		}
		if len(lines)+len(cmd)+2 > h {
			cmd = nil // no room: the input comes first
			lines = []string{"A TOML file to decide again from."}
		}
		desc = strings.Join(append(lines, cmd...), "\n")
	}
	return huh.NewInput().Key("path").
		Title("Save the answers to").
		Description(desc).
		Placeholder("answers.toml").
		Validate(func(s string) error {
			if strings.TrimSpace(s) == "" {
				return fmt.Errorf("enter a file name, for example answers.toml")
			}
			return nil
		}).
		Value(path)
}

// memoPathField is the export prompt.
func memoPathField(path *string) huh.Field {
	return huh.NewInput().Key("path").
		Title("Export the decision memo to").
		Description("A Markdown decision record (MADR) for an ADR folder. You see a preview before anything is written.").
		Placeholder("stackpick-decision.md").
		Validate(func(s string) error {
			if strings.TrimSpace(s) == "" {
				return fmt.Errorf("enter a file name, for example stackpick-decision.md")
			}
			return nil
		}).
		Value(path)
}

// confirmField is a yes/no question; y and n answer it in one key press.
func confirmField(title, desc string, v *bool) huh.Field {
	return huh.NewConfirm().Key("confirm").Title(title).Description(desc).
		Affirmative("Yes").Negative("No").Value(v)
}

// questionForm is one page of questions (or a single one, to edit).
func questionForm(c *shared, w, h int, bs []*binding) *form {
	return newForm(c, w, h, questionFields(c.KB, bs, w, h)...)
}

// saveForm asks for the path to save the answers to.
func saveForm(c *shared, w, h int, path *string) *form {
	replays := []string{replayCommand(c.kbDir, "FILE")}
	if c.kbDir != "" {
		replays = append(replays, "stackpick decide --kb KB_FOLDER --answers FILE")
	}
	return newForm(c, w, h, pathField(path, replays, w, h))
}

// exportForm asks for the path to export the memo to.
func exportForm(c *shared, w, h int, path *string) *form {
	return newForm(c, w, h, memoPathField(path))
}

// manifestForm asks for the folder to write the deployable files in.
func manifestForm(c *shared, w, h int, path *string) *form {
	return newForm(c, w, h, huh.NewInput().Key("path").
		Title("Write the deployable files to the folder").
		Description("Made if missing. Every file is checked first: nothing is replaced without a yes, and never half the set.").
		Placeholder("type a folder, for example deploy").
		Validate(func(s string) error {
			if strings.TrimSpace(s) == "" {
				return fmt.Errorf("enter a folder, for example deploy")
			}
			return nil
		}).
		Value(path))
}

// confirmForm asks one yes/no question.
func confirmForm(c *shared, w, h int, title, desc string, v *bool) *form {
	return newForm(c, w, h, confirmField(title, desc, v))
}

// choice is one entry of an accessible menu.
type choice struct{ label, value string }

// errInputEnded is returned when the accessible prompts' input runs out.
var errInputEnded = ErrInputEnded

// accessible runs fields as huh's line-by-line prompts. huh v2.0.3 panics
// when a select prompt reads end-of-file (it indexes option -1); that is
// turned into errInputEnded so ctrl+d or a short pipe never crashes. Its
// other prompts take end of file for "keep the answer": read through an
// inputWatch (accessible.go), a prompt the input ended at ends the
// prompts instead (errInputEnded, or ErrHangup when the terminal went).
func accessible(in io.Reader, out io.Writer, fields ...huh.Field) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errInputEnded
		}
		if err == nil || err == errInputEnded {
			if ended := endOf(in); ended != nil {
				err = ended
			}
		}
	}()
	return huh.NewForm(huh.NewGroup(fields...)).
		WithAccessible(true).WithInput(in).WithOutput(out).
		WithKeyMap(formKeys()).Run()
}

func askChoice(in io.Reader, out io.Writer, title string, choices []choice, v *string) error {
	opts := make([]huh.Option[string], len(choices))
	for i, c := range choices {
		opts[i] = huh.NewOption(c.label, c.value)
	}
	return accessible(in, out, huh.NewSelect[string]().Title(title).Options(opts...).Value(v))
}

// askQuestions asks each binding's question in turn: the question and why
// it matters printed first, wrapped at spaces to width, then a one-line
// prompt huh reads the answer after (huh pads every line of a multi-line
// prompt to its widest, which left the typed answer far to the right).
func askQuestions(in io.Reader, out io.Writer, kb *knowledge.KB, bs []*binding, width int) error {
	for _, b := range bs {
		q := b.q
		fmt.Fprintln(out)
		for _, l := range report.Wrap(q.Prompt+" ("+q.Key+")", width, 0, 2) {
			fmt.Fprintln(out, l)
		}
		for _, l := range report.Wrap("Why it matters: "+q.Why, width, 2, 0) {
			fmt.Fprintln(out, l)
		}
		cur, _ := b.value()
		for _, l := range report.Wrap(accessibleNow(q, cur.Plain(q.Type)), width, 2, 0) {
			fmt.Fprintln(out, l)
		}
		r := in
		if q.Type == knowledge.TypeList {
			// A bare enter ends the list as it stands, as it keeps the
			// answer at every other prompt (huh wants a 0).
			r = &blankIsDone{r: in, atStart: true}
		}
		if err := accessible(r, out, b.field(kb, true, width, 0)); err != nil {
			return err
		}
	}
	return nil
}

func askText(in io.Reader, out io.Writer, title string, v *string) error {
	return accessible(in, out, huh.NewInput().Title(title).Value(v))
}

func askYesNo(in io.Reader, out io.Writer, title string, v *bool) error {
	return accessible(in, out, huh.NewConfirm().Title(title).Affirmative("Yes").Negative("No").Value(v))
}

// accessibleNow says the answer now and how to keep or change it, printed
// before an accessible prompt.
func accessibleNow(q *knowledge.Question, now string) string {
	switch q.Type {
	case knowledge.TypeInt:
		return fmt.Sprintf("Now %s. Press enter to keep it, or type %s.", now, q.AllowedText())
	case knowledge.TypeList:
		return fmt.Sprintf("Now %s. Type an item's number to tick or untick it; 0 or enter when done.", now)
	default:
		return fmt.Sprintf("Now %s. Press enter to keep it, or type the number of another.", now)
	}
}

// aboutForm asks for the memo's metadata (the export's "About this
// decision" step), each field prefilled; the placeholders show the
// defaults a field left empty gives.
func aboutForm(c *shared, w, h int, v *memoAbout) *form {
	statuses := make([]huh.Option[string], len(knowledge.MemoStatuses))
	for i, s := range knowledge.MemoStatuses {
		statuses[i] = huh.NewOption(s, s)
	}
	return newForm(c, w, h,
		huh.NewInput().Key("title").Title("Title").
			Description("Empty: "+v.defaultTitle).Value(&v.title),
		huh.NewSelect[string]().Key("status").Title("Status").Description("←/→ to change").Options(statuses...).Inline(true).Value(&v.status),
		huh.NewInput().Key("deciders").Title("Deciders").
			Description("Names, separated by commas. Empty: "+report.MemoPlaceholder).Value(&v.deciders),
		huh.NewInput().Key("date").Title("Date").Description("YYYY-MM-DD").
			Validate(func(s string) error {
				if e := knowledge.CheckMemoDate("date", strings.TrimSpace(s)); e != nil {
					return fmt.Errorf("%s: write it YYYY-MM-DD, for example %s", e.Problem, v.today)
				}
				return nil
			}).Value(&v.date),
		huh.NewInput().Key("problem").Title("Problem statement").
			Description("A sentence or two in your words. Empty: the question the decision answers").Value(&v.problem),
	)
}

// focusedText is the text in the focused field as typed so far (huh
// stores a field's value when it leaves the field), or "" when the
// focused field is not key's.
func (f *form) focusedText(key string) (string, bool) {
	fl := f.f.GetFocusedField()
	if fl == nil || fl.GetKey() != key {
		return "", false
	}
	s, ok := fl.GetValue().(string)
	return s, ok
}
