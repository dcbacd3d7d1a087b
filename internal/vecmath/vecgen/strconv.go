// This file implements the exact printing of float constants.

package vecgen

import "strconv"

// strconvFormat prints f so that it parses back to the same value of the
// given width (shortest decimal form; Go constants are exact).
func strconvFormat(f float64, bits int) string {
	s := strconv.FormatFloat(f, 'g', -1, bits)
	for _, c := range s {
		if c == '.' || c == 'e' || c == 'E' {
			return s
		}
	}
	return s + ".0"
}
