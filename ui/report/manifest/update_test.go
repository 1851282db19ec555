package manifest

import "flag"

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ (review the diff)")
