package report

// CodeSpan is codeSpan, for the tests of package report_test.
var CodeSpan = codeSpan
