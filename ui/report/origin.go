package report

import "github.com/stackpick/stackpick/scenarios"

// Origin says where a decision's answers came from. It is the one place
// that titles a decision and names its source, for the command line's
// cards and memo and for the app's memo alike.
type Origin struct {
	Scenario *scenarios.Scenario // the preset the answers came from, or nil
	// Moved lists the answers changed since the preset ("key old → new;
	// …"), so the story never contradicts the answers table.
	Moved string
	File  string // the answers file, as the user named it, or ""
}

// Header is the title and story told before the cards.
func (o Origin) Header() Header {
	in := o.MemoInput("")
	return Header{Title: in.Title, Story: in.Story}
}

// MemoInput is the memo's title, story and source line for these answers,
// dated date. Answers from neither a preset nor a file are the app's
// questionnaire's (Memo's own fallback title would read "Choose the LLM
// serving stack: LLM serving stack").
func (o Origin) MemoInput(date string) MemoInput {
	in := MemoInput{
		Date:   date,
		Title:  "Answers from the questionnaire",
		Source: "answers entered in stackpick's interactive app",
	}
	switch {
	case o.Scenario != nil:
		in.Title, in.Story, in.Source = o.Scenario.Title, o.Scenario.Story, "scenario "+o.Scenario.Name
		if o.Moved != "" {
			in.Source += ", with answers changed in the app"
			in.Story += " In this record the answers differ from the preset: " + o.Moved + "."
		}
	case o.File != "":
		in.Title = "Answers from " + o.File
		in.Source = "answers file " + o.File
	}
	return in
}
