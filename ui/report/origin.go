package report

import (
	"strings"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// Origin says where a decision's answers came from. It is the one place
// that titles a decision and names its source, for the command line's
// cards and memo and for the app's memo alike.
type Origin struct {
	Scenario *scenarios.Scenario // the preset the answers came from, or nil
	// Moved lists the answers changed since the preset ("key old → new;
	// …"), so the story never contradicts the answers table.
	Moved string
	File  string // the answers file, as the user named it, or ""
	// Title is the answers file's [memo] title, or "": it titles the
	// decision in place of the file's name.
	Title string
}

// AnswersTitle names answers read from a file: their [memo] title when
// they carry one, else name (the file's name).
func AnswersTitle(a knowledge.Answers, name string) string {
	if t := strings.TrimSpace(a.Memo().Title); t != "" {
		return t
	}
	return name
}

// Header is the title and story told before the cards.
func (o Origin) Header() Header {
	in := o.MemoInput("")
	title := in.Title
	switch {
	case o.Scenario != nil:
	case o.File != "" && o.Title != "":
		title = o.Title
		if in.Story == "" {
			in.Story = "Answers from " + o.File + "."
		}
	case o.File != "":
		title = "Answers from " + o.File
	default:
		title = "Answers from the questionnaire"
	}
	return Header{Title: title, Story: in.Story, Source: in.Source, Manifest: in.Manifest}
}

// MemoInput is the memo's title, story and source line for these answers,
// dated date. A preset gives its title; answers from a file or the app's
// questionnaire leave the title to the memo, which names the stack (a file
// name is no title for a decision record).
func (o Origin) MemoInput(date string) MemoInput {
	in := MemoInput{
		Date:   date,
		Source: "answers entered in stackpick's interactive app",
	}
	switch {
	case o.Scenario != nil:
		in.Title, in.Story, in.Source = o.Scenario.Title, o.Scenario.Story, "scenario "+o.Scenario.Name
		in.Manifest = ManifestCommand(o.Scenario.Name, "", ManifestDir)
		if o.Moved != "" {
			in.Manifest = ""
			in.Source += ", with answers changed in the app"
			in.Story += " In this record the answers differ from the preset: " + o.Moved + "."
		}
	case o.File == "-":
		// Answers piped in are not kept: no command writes the files
		// again from them (manifest says the same).
		in.Source = "answers read from standard input"
	case o.File != "":
		in.Source = "answers file " + o.File
		in.Manifest = ManifestCommand("", o.File, ManifestDir)
	}
	return in
}

// ManifestDir is the folder the memo's manifest command writes to.
const ManifestDir = "deploy"
