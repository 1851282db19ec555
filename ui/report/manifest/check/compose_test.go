package check

import (
	"os"
	"strings"
	"testing"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/files/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mutation is one bad variant of a good file: the text replaced, and what
// the problem must name (its path or line:col, and words of its message).
type mutation struct {
	name     string
	old, new string
	path     string
	message  string
}

// applyMutation returns good with m applied, failing when m.old is not in it
// once (so a mutation can never silently test the good file).
func applyMutation(t *testing.T, good string, m mutation) []byte {
	t.Helper()
	if strings.Count(good, m.old) != 1 {
		t.Fatalf("%s: %q occurs %d times in the good file, want once", m.name, m.old, strings.Count(good, m.old))
	}
	return []byte(strings.Replace(good, m.old, m.new, 1))
}

// wantProblem fails unless some problem is at m.path with m.message in it.
func wantProblem(t *testing.T, m mutation, ps []Problem) {
	t.Helper()
	for _, p := range ps {
		if p.Path == m.path && strings.Contains(p.Message, m.message) {
			return
		}
	}
	t.Errorf("%s: no problem at %q saying %q; got %v", m.name, m.path, m.message, ps)
}

func TestComposePassesTheGoodFile(t *testing.T) {
	if ps := Compose("compose.yaml", readTestdata(t, "compose.yaml"), nil); len(ps) != 0 {
		t.Fatalf("problems in the good file: %v", ps)
	}
	if ps := Compose("compose.yaml", readTestdata(t, "compose.yaml"), Versions{"compose": "main@170098b"}); len(ps) != 0 {
		t.Fatalf("problems in the good file at the named version: %v", ps)
	}
}

func TestComposeRejectsMutations(t *testing.T) {
	good := string(readTestdata(t, "compose.yaml"))
	for _, m := range []mutation{
		{"unknown key in a service", "    ports:\n", "    portz:\n", "/services/vllm", "portz"},
		{"unknown top-level key", "volumes:\n  model-cache: {}", "volume:\n  model-cache: {}", "/", "volume"},
		{"wrong type: command is a number", "    command:\n      - --model\n      - meta-llama/Llama-3.1-8B-Instruct\n      - --tensor-parallel-size\n      - \"2\"\n      - --max-model-len\n      - \"32768\"\n      - --port\n      - \"8000\"\n", "    command: 42\n", "/services/vllm/command", "want"},
		{"wrong type: start_period is a number", "start_period: 20m", "start_period: 20", "/services/vllm/healthcheck/start_period", "want string"},
		{"wrong type: healthcheck test is a map", `test: ["CMD", "curl", "-f", "http://localhost:8000/health"]`, `test: {CMD: curl}`, "/services/vllm/healthcheck/test", "want"},
		{"bad enum: volume type", "      - model-cache:/root/.cache/huggingface\n", "      - {type: volumee, source: model-cache, target: /root/.cache/huggingface}\n", "/services/vllm/volumes/0/type", "must be one of 'bind'"},
		{"bad enum: gpus", "    ports:\n", "    gpus: every\n    ports:\n", "/services/vllm/gpus", "must be 'all'"},
		{"out of range: oom_score_adj", "    ports:\n", "    oom_score_adj: 2000\n    ports:\n", "/services/vllm/oom_score_adj", "maximum"},
		{"bad value: device capabilities not a list", "capabilities: [gpu]", "capabilities: gpu", "/services/vllm/deploy/resources/reservations/devices/0/capabilities", "want array"},
		{"invalid value: duplicate entries in a unique list", "      - HF_TOKEN\n", "      - HF_TOKEN\n      - HF_TOKEN\n", "/services/vllm/environment", "items at"},
		{"invalid value: a device without capabilities", "              capabilities: [gpu]\n", "", "/services/vllm/deploy/resources/reservations/devices/0", "capabilities"},
		{"unknown key in a device", "driver: nvidia", "drivr: nvidia", "/services/vllm/deploy/resources/reservations/devices/0", "drivr"},
	} {
		t.Run(m.name, func(t *testing.T) {
			wantProblem(t, m, Compose("compose.yaml", applyMutation(t, good, m), nil))
		})
	}
}

func TestComposeTakesInterpolationInAnyString(t *testing.T) {
	good := string(readTestdata(t, "compose.yaml"))
	// use_api_socket is the one service field the schema types boolean
	// alone: an interpolated string there is fine, a plain one is not.
	for _, s := range []string{"use_api_socket: ${API_SOCKET:-false}", "use_api_socket: $API_SOCKET", "use_api_socket: \"${API_SOCKET?set it}\""} {
		body := strings.Replace(good, "    ports:\n", "    "+s+"\n    ports:\n", 1)
		if ps := Compose("compose.yaml", []byte(body), nil); len(ps) != 0 {
			t.Errorf("%s: %v", s, ps)
		}
	}
	// A literal $$ is not interpolation, so the type error stands.
	for _, s := range []string{"use_api_socket: $$API_SOCKET", "use_api_socket: \"no\""} {
		body := strings.Replace(good, "    ports:\n", "    "+s+"\n    ports:\n", 1)
		if ps := Compose("compose.yaml", []byte(body), nil); len(ps) == 0 {
			t.Errorf("%s passed", s)
		}
	}
}

func TestComposeNamesAnUnvendoredVersionAndBadYAML(t *testing.T) {
	ps := Compose("compose.yaml", readTestdata(t, "compose.yaml"), Versions{"compose": "v9.9.9"})
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "main@170098b") {
		t.Errorf("unvendored version: %v", ps)
	}
	for _, body := range []string{"services: [", "\x00\xff", "", "- a\n- b\n", "null", "services: 3"} {
		if ps := Compose("compose.yaml", []byte(body), nil); len(ps) == 0 {
			t.Errorf("%q passed", body)
		}
	}
}

func BenchmarkCompose(b *testing.B) {
	body := readTestdata(b, "compose.yaml")
	b.Run("compile+validate", func(b *testing.B) {
		for b.Loop() {
			composeSchemas.Clear()
			if ps := Compose("compose.yaml", body, nil); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			if ps := Compose("compose.yaml", body, nil); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
}
