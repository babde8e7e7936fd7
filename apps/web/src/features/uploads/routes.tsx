import type { RouteObject } from 'react-router';
import { placeholderElement, placeholderRoute } from '../../components/placeholderRoute';

const limits =
  'One imaging dataset as a .zip of at most 1 GB, DICOM only; 4 GB of free memory advised; it may take up to 30 minutes.';

export const uploadRoutes: RouteObject[] = [
  {
    path: 'upload-images',
    children: [
      {
        index: true,
        ...placeholderElement({
          section: 'Image upload',
          title: 'Upload images',
          upcoming: ['Upload your own imaging data to build patient cohorts from it.', limits],
        }),
      },
      placeholderRoute('upload', {
        section: 'Image upload',
        title: 'Upload',
        upcoming: ['Choose the files to upload; interrupted uploads resume.'],
      }),
      placeholderRoute('success', {
        section: 'Image upload',
        title: 'Upload complete',
        upcoming: ['Confirmation that your data arrived, and what happens next.'],
      }),
      placeholderRoute('anonymize-data', {
        section: 'Image upload',
        title: 'Anonymize data',
        upcoming: ['Review the DICOM tags that identify a patient and remove them in your browser.', limits],
      }),
      placeholderRoute('upload-anonymized-data', {
        section: 'Image upload',
        title: 'Upload anonymized data',
        upcoming: ['Upload the anonymized dataset.'],
      }),
      placeholderRoute('upload-dicom-images', {
        section: 'Image upload',
        title: 'Upload DICOM images',
        upcoming: ['Upload DICOM series and see their patients, studies and series.'],
      }),
    ],
  },
];
