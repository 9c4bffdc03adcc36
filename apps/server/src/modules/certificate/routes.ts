import { certificate, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { CertificateService } from './service.js';

export function certificateRoutes(router: Router, service: CertificateService) {
  router.add(certificate.queryCertificate, async ({ session }) => {
    const info = await service.query(session.user.orgId);
    return { hhtStatus: 'success', certificateName: info?.certificateName ?? null, dataObject: info };
  });

  router.add(certificate.updateCertificate, async ({ session, params, ip, language }) => {
    const { info, sent } = await service.update(
      { user: session.user, ip },
      params.certificateName,
      params.certificate,
    );
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, 'certificate.updated', { count: sent }),
      certificateName: info.certificateName,
      dataObject: info,
    };
  });
}
