// Package demo generates the research room's demo data: record collections of
// every kind with realistic names, spellings and dates, and a small library and
// archive catalogue, written as CSV files (lineage demo) or loaded straight into a
// store through the room's API (serve --demo). No production path imports it.
package demo
