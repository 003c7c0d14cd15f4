//! The onboarding tour, mounted by the shell.

export { OnboardingTour } from './components/onboarding-tour'
