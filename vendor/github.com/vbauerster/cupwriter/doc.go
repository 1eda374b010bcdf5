// package cupwriter is a cross platform buffered io.Writer which abstracts
// writing multi lines to a fixed position within a terminal.
package cupwriter
