package manifest

import "flag"

// update rewrites the golden files under testdata/ (review the diff).
var update = flag.Bool("update", false, "rewrite the golden files in testdata/ (review the diff)")
