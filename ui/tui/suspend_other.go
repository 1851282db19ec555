//go:build !unix

package tui

import tea "charm.land/bubbletea/v2"

// stopSignals is nothing where there is no job control (see suspend_unix.go).
type stopSignals struct{}

func newStopSignals() *stopSignals { return nil }

func (s *stopSignals) filter(_ tea.Model, msg tea.Msg) tea.Msg { return msg }

func (s *stopSignals) watch(*tea.Program) (stop func()) { return func() {} }
