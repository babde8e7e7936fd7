// Spec §8 "Simulation help" and "Measurements disabled", word for word: the same texts the pages show.
import { measurementsDisabledMessage, simulationHelpMessage } from '@insilico/contracts';

export interface HelpTopic {
  id: string;
  title: string;
  paragraphs: string[];
}

/** The help topics of /help: short, true to what the workspace does (spec §1, §4, §6, §9). */
export const helpTopics: HelpTopic[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    paragraphs: [
      'After you sign up, onboarding walks you through six steps: the body part your device is for, its development stage, the device details, your company and your team. Your progress is saved after every step, so you can continue in another browser.',
      'When you finish, your device workspace is created with you as its admin and a short countdown takes you there. Every project, patient cohort and file belongs to exactly one device workspace.',
    ],
  },
  {
    id: 'workspaces-and-teams',
    title: 'Workspaces and teams',
    paragraphs: [
      'Admins invite colleagues by e-mail under Manage team. The invited person follows the link in the mail, signs up or in, and waits until an admin accepts them. Roles: admins manage the team and accept pending users; members and admins create projects; guests see only the projects they were added to.',
      'Each plan has a number of seats. Members, people waiting for approval and open invitations each take one; see Subscriptions. Add further devices with "Add device" in the workspace switcher.',
    ],
  },
  {
    id: 'cohorts',
    title: 'Patient cohorts',
    paragraphs: [
      'A cohort is a group of virtual patients (CT-based; heart and thorax for now) chosen by criteria such as age group (adult 18–75, geriatric 65+). Cohort sizes are 5, 10, 20, 50 or 100 patients.',
      `Statistical population analysis needs at least 20 patients. ${measurementsDisabledMessage}`,
    ],
  },
  {
    id: 'simulations',
    title: 'Simulations',
    paragraphs: [
      'Open a room on a patient or on a statistical shape model, place your device version (an .stl file) and run solid, fluid or particle simulations. Results are analysed as graphs, with screenshots and a CSV download.',
      simulationHelpMessage,
    ],
  },
  {
    id: 'data-regions-and-privacy',
    title: 'Data regions and privacy',
    paragraphs: [
      'Each device workspace keeps its data in one region, the EU or the US, proposed from your company’s country. An admin can change it until the workspace holds data; after that it is fixed.',
      'Pictures you upload are checked by their content and stored without their metadata (for example the location a photo was taken). Imaging you upload is anonymised before it leaves your browser; zip files may be up to 1 GB.',
    ],
  },
];
