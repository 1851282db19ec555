package knowledge_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

var kb = knowledge.MustDefault()

// Answers parsing never panics, and whatever it accepts round-trips: the
// TOML it writes reads back to the same answers.
func FuzzParseAnswers(f *testing.F) {
	for _, seed := range []string{
		"",
		"nodes = 4\ngpu = \"h200\"\nkubernetes = \"required\"\n",
		"other_model_types = [\"vision\", \"tabular\"]\n",
		"nodes = \"4\"\n",
		"nodes = 0\n",
		"gpu = \"h10\"\n",
		"nodez = 3\n",
		"[answers]\nnodes = 2\n",
		"nodes = 9999999999999\n",
		"other_model_types = \"vision\"\n",
		"structured_output = \"yes\"\n",
		"x = [1, {a = 2}]\n",
		"nodes = 4.5\n",
		"a.b.c = 1\n",
		"nodes = 2\n[memo]\ntitle = \"A \\\"quoted\\\" title\"\nstatus = \"accepted\"\ndeciders = [\"Ana\", \"Ben\"]\ndate = 2026-12-01\nproblem = \"one\\ntwo\\u0001\"\n",
		"[memo]\ndeciders = [\"a\", 1]\ndate = 2026-12-01T10:00:00\n",
		"memo = 3\n",
		// Nesting at and past the limit; brackets the nesting check must
		// not count; text an error must escape.
		"a = [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]\n",
		"a = [[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]\n",
		"nodes = {a={a={a={a={a={a={a={a={a={a={a={a={a={a={a={a={a=1}}}}}}}}}}}}}}}}}\n",
		"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q = 1\n",
		"gpu = \"[[[[[[[[[[[[[[[[[[[[\"\n# {{{{{{{{{{{{{{{{{{\nnodes = 2\n",
		"[memo]\nproblem = \"\"\"\n\\\"\"\" [[[[[[[[[[[[[[[[[[[[\n\"\"\"\n",
		"gpu = \"\u202eh100\u2066\"\n",
		"\"no\u202edes\" = 1\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := kb.ParseAnswers("fuzz.toml", data)
		if err != nil {
			var es knowledge.Errors
			if !errors.As(err, &es) || len(es) == 0 || es[0].Error() == "" {
				t.Fatalf("error without a message: %v", err)
			}
			return
		}
		back, err := kb.ParseAnswers("again.toml", a.TOML("round trip"))
		if err != nil {
			t.Fatalf("written answers do not read back: %v\n%s", err, a.TOML(""))
		}
		for i, q := range kb.Questions {
			if !a.Values()[i].Equal(back.Values()[i], q.Type) {
				t.Fatalf("%s changed on the round trip: %v → %v", q.Key, a.Values()[i], back.Values()[i])
			}
		}
		if am, bm := a.Memo(), back.Memo(); am.Title != bm.Title || am.Status != bm.Status || am.Date != bm.Date || am.Problem != bm.Problem || !slices.Equal(am.Deciders, bm.Deciders) {
			t.Fatalf("the [memo] table changed on the round trip: %#v → %#v", am, bm)
		}
	})
}

// Loading an overlay never panics, whatever the file holds.
func FuzzBuildOverlay(f *testing.F) {
	for _, seed := range []string{
		"",
		"[[rule]]\nid = \"x\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"sglang\"\nweight = 1\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
		"[[rule]]\nid = \"x\"\nlayer = \"engine\"\neffect = \"exclude\"\nproduct = \"vllm\"\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n[rule.when]\nnodes = { at_least = 5, at_most = 2 }\n",
		"[[product]]\nid = \"new\"\nname = \"N\"\nlayer = \"engine\"\nrole = \"r\"\n[[product.source]]\ntitle = \"t\"\nurl = \"u\"\nas_of = \"2026-01\"\n",
		"[[question]]\nkey = \"k\"\ntype = \"enum\"\nvalues = []\n",
		"[[question]]\nkey = \"nodes\"\ntype = \"bool\"\ndefault = true\npage = \"p\"\nprompt = \"p\"\nwhy = \"w\"\n",
		"[[gpu]]\nid = \"x\"\nvendor = \"intel\"\n",
		"[[layer]]\nid = \"edge\"\n",
		"[[rule]]\nid = \"c\"\nlayer = \"orchestrator\"\neffect = \"complement\"\nproduct = \"kserve\"\nwith = \"kserve\"\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
		"[[rule]]\n[rule.when]\nother_model_types = { equals = \"vision\" }\n",
		"[[rule]]\nwhen = 3\n",
		"product = 5\n",
		"[[question]]\nkey = \"latency_priority\"\npage = \"Workload\"\ntype = \"enum\"\nvalues = [\"latency\", \"interactive\"]\ndefault = \"latency\"\nprompt = \"p\"\nwhy = \"w\"\n",
		"[[question]]\nkey = \"model\"\npage = \"Models\"\ntype = \"enum\"\ncatalog = \"gpu\"\ndefault = \"h100\"\nprompt = \"p\"\nwhy = \"w\"\n",
		"[[rule]]\nid = \"deep\"\nwhen = {a={a={a={a={a={a={a={a={a={a={a={a={a={a={a={a={a=1}}}}}}}}}}}}}}}}}\n",
		"[[rule]]\nid = \"r\u202e\"\nreason = '[[[[[[[[[[[[[[[[[[[['\n\"bad\u2066\" = 1\n",
		"[[flag]]\nid = \"vllm-enable-lora\"\nengine = \"sglang\"\nname = \"--x\"\neffect = \"e\"\nstatus = \"current\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
	} {
		f.Add([]byte(seed))
	}
	base := knowledge.DecodeBase(knowledge.Embedded())
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := base.Build([]knowledge.SourceFile{{Name: "overlay.toml", Data: data}})
		if err == nil {
			// What loads must be usable: defaults exist for every question.
			_ = got.Defaults()
		}
	})
}
