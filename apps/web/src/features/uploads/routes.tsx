import type { RouteObject } from 'react-router';
import type * as Pages from './components/UploadImagesPages';

/** A step of the image upload, its page loaded on first visit (with the flow's state from the layout). */
const step = (path: string | undefined, title: string, page: keyof typeof Pages): RouteObject => ({
  ...(path === undefined ? { index: true } : { path }),
  lazy: async () => ({ Component: (await import('./components/UploadImagesPages'))[page] }),
  handle: { title },
});

/** `/upload-images/*` (spec §2 "Image upload", issue 19): choose, review the tree, anonymize, upload, done. */
export const uploadRoutes: RouteObject[] = [
  {
    path: 'upload-images',
    lazy: async () => ({ Component: (await import('./components/UploadImagesLayout')).UploadImagesLayout }),
    children: [
      step(undefined, 'Upload images', 'UploadImagesIntroPage'),
      step('upload', 'Upload', 'ChooseImagingDataPage'),
      step('upload-dicom-images', 'Upload DICOM images', 'DicomTreePage'),
      step('anonymize-data', 'Anonymize data', 'AnonymizeDataPage'),
      step('upload-anonymized-data', 'Upload anonymized data', 'UploadAnonymizedDataPage'),
      step('success', 'Upload complete', 'UploadSuccessPage'),
    ],
  },
  {
    // The support staff's modelling queue (issue 19 item 7); the server refuses everybody else.
    path: 'support-inbox/imaging',
    lazy: async () => ({ Component: (await import('./components/ImagingQueuePage')).ImagingQueuePage }),
    handle: { title: 'Imaging modelling queue' },
  },
];
