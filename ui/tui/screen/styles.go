package screen

import "github.com/stackpick/stackpick/ui/report"

// Styles are the app's semantic styles: report's one palette, so a card
// reads in the same colours in the app and on the command line. Screens
// never pick a colour inline.
type Styles = report.Styles

// NewStyles builds the styles for a dark or light background.
func NewStyles(isDark bool) Styles { return report.NewStyles(isDark) }
